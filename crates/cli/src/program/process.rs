//! Starting a program in its own process group, reading what it writes without ever holding more than
//! a cap, and killing the whole group.
//!
//! The command runs under `sh -c` so a student's `python3 homework.py` works as typed. Every process it
//! starts shares its process group, so killing the group ends a child it left behind too (a program that
//! leaves the group on purpose, with `setsid`, escapes: a program has no sandbox, see docs/programs.md; a
//! code entry's process has, and its PID namespace ends every process it started). The
//! group is killed as soon as its leader exits, and the leader reaped only then ([`super::live`]).

use super::cancel::{Ticket, POLL};
use super::live;
use super::quota;
use crate::code::sandbox::Sandbox;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How much stderr is kept: the tail, where a traceback ends.
const STDERR_KEEP: usize = 16 * 1024;

/// A started program: its group, its stdin when asked for, and the tail of its stderr.
pub struct Running {
    pgid: i32,
    stderr: Arc<Mutex<Tail>>,
    /// Hears once the stderr stream has ended.
    stderr_closed: Receiver<()>,
    stderr_ended: bool,
    exited: Receiver<Exit>,
    exit: Option<Exit>,
}

/// How a process ended, and what it cost.
#[derive(Clone, Copy, Debug)]
pub struct Exit {
    /// The raw wait status.
    status: i32,
    /// User plus system CPU time of the process and the children it waited for.
    pub cpu: Duration,
    /// Whether it was killed because its game's folder outgrew its quota.
    over_quota: bool,
}

impl Exit {
    /// The exit of a process another one waited for and reported (a warm interpreter's move): its raw
    /// wait status and CPU time.
    pub(super) fn reported(status: i32, cpu: Duration) -> Exit {
        Exit {
            status,
            cpu,
            over_quota: false,
        }
    }

    /// Its exit status, when it exited rather than being killed by a signal.
    pub fn code(&self) -> Option<i32> {
        libc::WIFEXITED(self.status).then(|| libc::WEXITSTATUS(self.status))
    }

    /// Whether it exited with status 0.
    pub fn success(&self) -> bool {
        libc::WIFEXITED(self.status) && libc::WEXITSTATUS(self.status) == 0
    }

    /// "exit status 1", "killed by signal 11 (SIGSEGV)".
    pub fn describe(&self) -> String {
        if self.over_quota {
            quota::describe()
        } else if libc::WIFEXITED(self.status) {
            format!("exit status {}", libc::WEXITSTATUS(self.status))
        } else if libc::WIFSIGNALED(self.status) {
            let signal = libc::WTERMSIG(self.status);
            let name = match signal {
                libc::SIGSEGV => " (SIGSEGV, a segmentation fault)",
                libc::SIGABRT => " (SIGABRT, an abort)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGTERM => " (SIGTERM)",
                libc::SIGFPE => " (SIGFPE, an arithmetic error)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGPIPE => " (SIGPIPE)",
                _ => "",
            };
            format!("killed by signal {signal}{name}")
        } else {
            format!("wait status {}", self.status)
        }
    }
}

/// The last [`STDERR_KEEP`] bytes of a stream, and how many bytes it has carried in all.
#[derive(Default)]
pub struct Tail {
    bytes: Vec<u8>,
    total: u64,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        self.bytes.extend_from_slice(chunk);
        if self.bytes.len() > STDERR_KEEP {
            let cut = self.bytes.len() - STDERR_KEEP;
            self.bytes.drain(..cut);
        }
    }

    /// What arrived after `mark` (a `total` read earlier), as far as the tail still holds it.
    fn since(&self, mark: u64) -> Vec<u8> {
        let new = usize::try_from(self.total - mark.min(self.total)).unwrap_or(usize::MAX);
        self.bytes[self.bytes.len() - new.min(self.bytes.len())..].to_vec()
    }
}

/// A program just started, with its stdin and the lines of its stdout when they are wired.
pub struct Started {
    pub running: Running,
    /// What is sent here is written to its stdin by a thread of its own, so a program that does not read
    /// never blocks the referee (it is killed at its deadline, which ends the thread).
    pub stdin: Option<mpsc::Sender<Vec<u8>>>,
    /// Its stdout's lines, a few at a time: a program that writes lines without end fills the queue and
    /// then waits, instead of filling memory.
    pub lines: Option<Receiver<Line>>,
}

/// How many of its lines a program may write ahead of the referee reading them.
const LINE_QUEUE: usize = 64;

/// How the program's stdin and stdout are wired.
pub enum Wiring {
    /// Neither is used (the course format: files in its folder); what it writes to stdout joins its
    /// stderr.
    Files,
    /// A request per line on stdin, an answer per line on stdout (read by [`Running::lines`]).
    Lines,
}

impl Running {
    /// Starts `command` with `sh -c` in `dir`, in a process group of its own, confined by `sandbox` when
    /// there is one (a code entry's process).
    pub fn start_in(
        command: &str,
        dir: &Path,
        wiring: Wiring,
        sandbox: Option<&Sandbox>,
    ) -> Result<Started, String> {
        if !dir.is_dir() {
            return Err(format!("its folder {} does not exist", dir.display()));
        }
        let script = match wiring {
            // What a course program prints is shown beside its stderr, as the page shows a course
            // script's prints (and as the course's own terminal did): stdout joins stderr.
            Wiring::Files => format!("exec 1>&2\n{}", script(command)),
            Wiring::Lines => script(command),
        };
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(script)
            .current_dir(dir)
            .stderr(Stdio::piped());
        match sandbox {
            // A session of its own, whose id is its pid as a group's would be.
            Some(sandbox) => sandbox.confine(&mut cmd, dir)?,
            None => {
                cmd.process_group(0);
            }
        }
        match wiring {
            Wiring::Files => cmd.stdin(Stdio::null()).stdout(Stdio::null()),
            Wiring::Lines => cmd.stdin(Stdio::piped()).stdout(Stdio::piped()),
        };
        let mut child = live::spawn(cmd, sandbox.is_some())
            .map_err(|e| format!("sh could not be started: {e}"))?;
        let pid = i32::try_from(child.id()).unwrap_or(i32::MAX);
        let stderr = Arc::new(Mutex::new(Tail::default()));
        let (closed, stderr_closed) = mpsc::channel();
        if let Some(pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            spawn_reader("program stderr", move || {
                keep_tail(pipe, &tail);
                let _ = closed.send(());
            });
        }
        let lines = child.stdout.take().map(|pipe| {
            let (sender, receiver) = mpsc::sync_channel(LINE_QUEUE);
            spawn_reader("program stdout", move || read_lines(pipe, &sender));
            receiver
        });
        let stdin = child.stdin.take().map(|pipe| {
            let (sender, receiver) = mpsc::channel::<Vec<u8>>();
            spawn_reader("program stdin", move || write_lines(pipe, &receiver));
            sender
        });
        // A code process's folder is watched while it runs.
        let watch = sandbox.map(|_| quota::Watch::start(dir, pid));
        let (sender, exited) = mpsc::channel();
        spawn_reader("program wait", move || {
            let reaped = live::wait_and_reap(pid, || reap(pid));
            let over_quota = watch.as_ref().is_some_and(|w| {
                w.end();
                w.exceeded()
            });
            if let Some(Some(exit)) = reaped {
                let _ = sender.send(Exit { over_quota, ..exit });
            }
        });
        let running = Running {
            pgid: pid,
            stderr,
            stderr_closed,
            stderr_ended: false,
            exited,
            exit: None,
        };
        Ok(Started {
            running,
            stdin,
            lines,
        })
    }

    /// Waits at most `limit` for the program to exit.
    pub fn wait_for(&mut self, limit: Duration) -> Option<Exit> {
        if self.exit.is_none() {
            self.exit = self.exited.recv_timeout(limit).ok();
        }
        self.exit
    }

    /// Waits at most `limit` for the program to exit, as [`Running::wait_for`], giving up early once
    /// `ticket` is cancelled.
    pub(super) fn wait_unless(&mut self, limit: Duration, ticket: Ticket<'_>) -> Option<Exit> {
        let deadline = Instant::now().checked_add(limit);
        while self.exit.is_none() && !ticket.cancelled() {
            let left = deadline.map_or(POLL, |d| d.saturating_duration_since(Instant::now()));
            if left.is_zero() {
                break;
            }
            match self.exited.recv_timeout(left.min(POLL)) {
                Ok(exit) => self.exit = Some(exit),
                Err(RecvTimeoutError::Timeout) => {}
                // It cannot be waited for: as a move that never ends.
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        self.exit
    }

    /// Its exit, if it has exited by now.
    pub fn exited(&mut self) -> Option<Exit> {
        if self.exit.is_none() {
            self.exit = self.exited.try_recv().ok();
        }
        self.exit
    }

    /// CPU time so far (user plus system) of the program and every process below it, each with the
    /// children it has waited for, from `/proc`; `None` where the system does not report it.
    pub fn cpu_so_far(&self) -> Option<Duration> {
        if let Some(exit) = self.exit {
            return Some(exit.cpu);
        }
        let mut ticks = process_ticks(self.pgid)?;
        // Its live descendants, breadth first; a bound keeps a fork bomb from making this a long walk.
        let mut queue = children(self.pgid);
        let mut seen = 0;
        while let Some(pid) = queue.pop() {
            seen += 1;
            if seen > MAX_WALKED {
                break;
            }
            ticks += process_ticks(pid).unwrap_or(0);
            queue.extend(children(pid));
        }
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        let per_second = u64::try_from(per_second).ok().filter(|&n| n > 0)?;
        Some(Duration::from_micros(ticks * 1_000_000 / per_second))
    }

    /// Bytes of stderr it has written so far: a mark for [`Running::stderr_since`].
    pub fn stderr_mark(&self) -> u64 {
        self.stderr.lock().map(|t| t.total).unwrap_or(0)
    }

    /// Its stderr written after `mark`, as far as the kept tail holds it. Once the program has exited,
    /// waits a moment for the stream's end, so the last lines before a crash are not missed.
    pub fn stderr_since(&mut self, mark: u64) -> Vec<u8> {
        if !self.stderr_ended && self.exited().is_some() {
            // A child it left holding stderr was killed with the group, so the end comes soon.
            let _ = self.stderr_closed.recv_timeout(Duration::from_millis(200));
            self.stderr_ended = true;
        }
        self.stderr
            .lock()
            .map(|t| t.since(mark))
            .unwrap_or_default()
    }

    /// Its stderr written after `mark` up to the last `marker` in it, waiting at most `limit` for the
    /// marker to arrive (it is written after the rest, on the same stream, but read by another thread);
    /// `None` if it did not.
    pub fn stderr_until(&self, mark: u64, marker: &[u8], limit: Duration) -> Option<Vec<u8>> {
        let deadline = Instant::now() + limit;
        loop {
            let since = self
                .stderr
                .lock()
                .map(|t| t.since(mark))
                .unwrap_or_default();
            if let Some(at) = since.windows(marker.len()).rposition(|w| w == marker) {
                return Some(since[..at].to_vec());
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_micros(200));
        }
    }

    /// Kills the whole process group and reaps the program.
    pub fn kill(&mut self) {
        live::kill_group(self.pgid);
        self.wait_for(Duration::from_secs(5));
    }
}

impl Drop for Running {
    /// A program never outlives its player: whatever is left of its group is killed.
    fn drop(&mut self) {
        live::kill_group(self.pgid);
    }
}

/// The most descendants of a program whose CPU time is read.
const MAX_WALKED: usize = 256;

/// utime + stime + cutime + cstime of `pid`, in clock ticks.
fn process_ticks(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime, stime, cutime, cstime are fields 14 to 17 of the line: 11 to 14 after the name.
    Some(
        fields
            .get(11..15)?
            .iter()
            .filter_map(|f| f.parse::<u64>().ok())
            .sum(),
    )
}

/// The live children of `pid`, from every one of its threads.
fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The script `sh -c` runs: a simple command is run with `exec`, so the program itself is the process
/// the referee started (its own stdin, its own exit status: a crash is "killed by signal 11", not the
/// shell's 139); a command with shell syntax in it runs as written. What quotes hold is text (the
/// bridge quotes its arguments so), not syntax.
fn script(command: &str) -> String {
    let first = command.split_whitespace().next().unwrap_or_default();
    let keyword = matches!(
        first,
        "if" | "while" | "until" | "for" | "case" | "{" | "!" | "exec" | "cd" | "export" | "set"
    );
    let bare = outside_quotes(command);
    let syntax = bare.contains([';', '&', '|', '(', ')', '\n', '`']) || first.contains('=');
    if keyword || syntax {
        command.to_string()
    } else {
        format!("exec {command}")
    }
}

/// `command` without the text its quotes hold and the characters escaped with a backslash, keeping
/// what is still syntax inside double quotes (a `` ` `` or `$(` substitution).
fn outside_quotes(command: &str) -> String {
    let mut bare = String::with_capacity(command.len());
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                // Up to the closing quote; an unclosed one is the shell's error to report.
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                }
            }
            '"' => {
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => {
                            chars.next();
                        }
                        '`' | '(' => bare.push(q),
                        _ => {}
                    }
                }
            }
            '\\' => {
                chars.next();
            }
            _ => bare.push(c),
        }
    }
    bare
}

/// Reaps `pid`, which has exited, and returns its status with its CPU time.
fn reap(pid: i32) -> Option<Exit> {
    loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are to live locals; pid is our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            let time = |t: libc::timeval| {
                Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
                    + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
            };
            return Some(Exit {
                status,
                cpu: time(usage.ru_utime) + time(usage.ru_stime),
                over_quota: false,
            });
        }
        if r == -1 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
}

fn spawn_reader(name: &str, work: impl FnOnce() + Send + 'static) {
    // Without a thread the stream is simply not read; the program then blocks on a full pipe and is
    // killed at its deadline, which the move's failure reports.
    let _ = thread::Builder::new().name(name.to_string()).spawn(work);
}

fn keep_tail(mut pipe: impl Read, tail: &Mutex<Tail>) {
    let mut chunk = [0u8; 4096];
    while let Ok(n) = pipe.read(&mut chunk) {
        if n == 0 {
            break;
        }
        if let Ok(mut t) = tail.lock() {
            t.push(&chunk[..n]);
        }
    }
}

/// Writes each buffer to the program's stdin until the pipe breaks or the sender is dropped.
fn write_lines(mut pipe: ChildStdin, buffers: &Receiver<Vec<u8>>) {
    while let Ok(bytes) = buffers.recv() {
        if pipe.write_all(&bytes).and_then(|()| pipe.flush()).is_err() {
            return;
        }
    }
}

/// One line the program wrote on stdout (without its line end), or one that was too long.
#[derive(Debug)]
pub enum Line {
    Text(Vec<u8>),
    /// A line over the cap: `bytes` read before it was given up.
    TooLong {
        bytes: usize,
    },
}

/// Sends each line of `pipe` until it closes; a line longer than the cap is reported and the rest of
/// the stream is no longer read (the program is killed for it).
fn read_lines(pipe: impl Read, lines: &mpsc::SyncSender<Line>) {
    let cap = gridarena_engine::halma::MAX_RESPONSE_BYTES;
    let mut reader = BufReader::new(pipe);
    loop {
        let mut line = Vec::new();
        let limit = u64::try_from(cap).map_or(u64::MAX, |c| c + 1);
        match (&mut reader).take(limit).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        } else if line.len() > cap {
            let _ = lines.send(Line::TooLong { bytes: line.len() });
            return;
        }
        if lines.send(Line::Text(line)).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simple_command_is_execed_and_shell_syntax_is_left_alone() {
        assert_eq!(script("python3 homework.py"), "exec python3 homework.py");
        assert_eq!(
            script("./agent --depth 3 > log.txt"),
            "exec ./agent --depth 3 > log.txt"
        );
        for kept in [
            "cd src && python3 a.py",
            "make -s; ./agent",
            "FOO=1 ./agent",
            "./a | tee x",
            "if true; then ./a; fi",
            "exec ./agent",
            "./agent 'a;b' ;",
            "./agent 'a' | tee x",
            "echo \"it's\" ; ./b",
            "./agent \"$(cat args)\"",
        ] {
            assert_eq!(script(kept), kept);
        }
        // What the bridge quotes is text: the program is still exec'd.
        assert_eq!(
            script(r"./agent --name 'a;b|c' 'it'\''s'"),
            r"exec ./agent --name 'a;b|c' 'it'\''s'"
        );
        assert_eq!(
            script(r#"python3 "my agent;1.py" a\;b"#),
            r#"exec python3 "my agent;1.py" a\;b"#
        );
    }

    /// Whether `pid` is a live process (a zombie is not).
    fn alive(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
        })
    }

    #[test]
    fn a_programs_group_is_killed_before_its_leader_is_reaped() {
        // Once the leader is reaped its pid may be reused, by another group too: the rest of its group
        // must be gone by the time its exit is known, so no later kill of the group is ever needed.
        let dir = std::env::temp_dir().join(format!("gridarena-reap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let started =
            Running::start_in("sleep 300 & echo $! > child.pid", &dir, Wiring::Files, None)
                .expect("sh starts");
        let mut running = started.running;
        running
            .wait_for(Duration::from_secs(10))
            .expect("the leader exits");
        let child: i32 = std::fs::read_to_string(dir.join("child.pid"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        while alive(child) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let left = alive(child);
        // SAFETY: kill has no memory preconditions; this is the test's own child.
        unsafe {
            libc::kill(child, libc::SIGKILL);
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!left, "the leader was reaped with its group still running");
    }

    #[test]
    fn the_cpu_of_a_programs_children_is_counted_while_they_run() {
        // A shell that waits for a busy child: the child's time is the program's.
        let dir = std::env::temp_dir();
        let started = Running::start_in(
            "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 5'",
            &dir,
            Wiring::Files,
            None,
        )
        .expect("sh starts");
        let mut running = started.running;
        let mut cpu = Duration::ZERO;
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(50));
            cpu = running.cpu_so_far().expect("Linux reports CPU time");
            if cpu >= Duration::from_millis(100) {
                break;
            }
        }
        running.kill();
        assert!(cpu >= Duration::from_millis(100), "{cpu:?}");
    }
}
