//! Every program's process group and every game folder alive in this process, under one lock with every
//! spawn, kill and reap of a program, so that however gridarena ends, they end with it.
//!
//! - A group is listed exactly while its leader is unreaped. A process id is not reused while a process
//!   (even a dead, unreaped one) holds it, so a listed group's id is still that group's: a kill of a
//!   listed group can never reach a stranger's group that got the same id after the leader was reaped.
//!   The leader is reaped only after its group has been killed, under the lock.
//! - [`end_all`], for a signal's watcher, kills every listed group, removes every listed folder and keeps
//!   the lock: no program starts after it and no killed program's exit is seen, so no game goes on to
//!   record a move its program lost to the interruption before the process exits.
//! - Gridarena killed outright (SIGKILL) runs none of this: on Linux each program's own process is also
//!   told to die with the thread that started it, a thread that lives as long as the process.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread;

/// What is alive: the process groups, by their leader's pid, and the game folders.
pub(super) struct Live {
    groups: BTreeSet<i32>,
    folders: BTreeSet<PathBuf>,
    /// Set once gridarena is ending: nothing starts any more.
    ending: bool,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    groups: BTreeSet::new(),
    folders: BTreeSet::new(),
    ending: false,
});

fn live() -> MutexGuard<'static, Live> {
    // A panic elsewhere while holding the lock leaves the lists as they were: still right.
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Lists a game folder, to be removed if gridarena is stopped before the folder's game ends.
pub(super) fn add_folder(path: &Path) {
    live().folders.insert(path.to_path_buf());
}

/// Forgets a game folder its game has removed.
pub(super) fn remove_folder(path: &Path) {
    live().folders.remove(path);
}

/// A command and where to send the child it started.
type Job = (Command, mpsc::Sender<io::Result<Child>>);

/// Starts `command`, whose child leads a process group of its own, and lists the group before anyone
/// can see the child. The child is started by one thread that lives as long as the process: on Linux
/// the death signal comes when the thread that started a process ends, not the process. Unless the
/// command has `arranged` it itself (the sandbox must, after it makes its namespaces), the child is
/// told to die with gridarena.
pub(super) fn spawn(mut command: Command, arranged: bool) -> io::Result<Child> {
    static SPAWNER: OnceLock<Option<mpsc::Sender<Job>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (jobs, queue) = mpsc::channel::<Job>();
        let started = thread::Builder::new()
            .name("program spawner".to_string())
            .spawn(move || {
                for (mut command, reply) in queue {
                    let _ = reply.send(start(&mut command));
                }
            });
        started.ok().map(|_| jobs)
    });
    let gone = || io::Error::other("the thread that starts programs is gone");
    let spawner = spawner.as_ref().ok_or_else(gone)?;
    let (reply, child) = mpsc::channel();
    if !arranged {
        die_with_gridarena(&mut command);
    }
    spawner.send((command, reply)).map_err(|_| gone())?;
    child.recv().map_err(|_| gone())?
}

fn start(command: &mut Command) -> io::Result<Child> {
    let mut live = live();
    if live.ending {
        return Err(io::Error::other("gridarena is stopping"));
    }
    let child = command.spawn()?;
    live.groups.insert(pid_of(&child));
    Ok(child)
}

/// Asks Linux to kill the child when the thread that started it ends, which, for the spawner's thread,
/// is when gridarena ends, however it ends. Only the program's own process is told; what it starts is
/// not (see docs/programs.md).
fn die_with_gridarena(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: the closure runs in the child between fork and exec, and die_with is safe there.
    unsafe {
        command.pre_exec(move || die_with(parent));
    }
}

/// Asks Linux to kill the calling process when the thread that started it ends, and checks that its
/// parent is still `parent`. Runs between fork and exec: prctl and getppid are async-signal-safe, and
/// the errors it makes allocate nothing.
#[cfg(target_os = "linux")]
pub(crate) fn die_with(parent: libc::pid_t) -> io::Result<()> {
    // SAFETY: plain system calls.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
            return Err(io::Error::last_os_error());
        }
        // Gridarena may have died between the fork and the prctl: no signal would come then.
        if libc::getppid() != parent {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn die_with(_parent: libc::pid_t) -> io::Result<()> {
    Ok(())
}

/// Kills every live program's group and removes every game folder, and returns the lock held: the
/// caller exits while holding it.
pub(super) fn end_all() -> MutexGuard<'static, Live> {
    let mut live = live();
    live.ending = true;
    for &pgid in &live.groups {
        signal_group(pgid);
    }
    for folder in &live.folders {
        // A killed program may still have been writing: a second try finds it done.
        if std::fs::remove_dir_all(folder).is_err() {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
    live
}

/// Kills the process group of leader `pgid`, unless its leader has been reaped (the group is then gone
/// already, and its id may be someone else's).
pub(super) fn kill_group(pgid: i32) {
    let live = live();
    if live.groups.contains(&pgid) {
        signal_group(pgid);
    }
}

/// Waits until the group's leader `pgid` exits, kills what is left of its group, then reaps the leader
/// with `reap`; `None` when the leader cannot be waited for.
pub(super) fn wait_and_reap<T>(pgid: i32, reap: impl FnOnce() -> T) -> Option<T> {
    if !wait_exited(pgid) {
        return None;
    }
    let mut live = live();
    signal_group(pgid);
    let reaped = reap();
    live.groups.remove(&pgid);
    Some(reaped)
}

/// Blocks until `pid`, our child, has exited, leaving it unreaped.
fn wait_exited(pid: i32) -> bool {
    let Ok(id) = libc::id_t::try_from(pid) else {
        return false;
    };
    loop {
        // SAFETY: a zeroed siginfo_t is a valid value of the plain C struct.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: info is a live local; WNOWAIT leaves the child to be reaped later.
        let r = unsafe { libc::waitid(libc::P_PID, id, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if r == 0 {
            return true;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return false;
        }
    }
}

fn signal_group(pgid: i32) {
    // SAFETY: kill has no memory preconditions; a negative pid names the process group.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

fn pid_of(child: &Child) -> i32 {
    i32::try_from(child.id()).unwrap_or(i32::MAX)
}
