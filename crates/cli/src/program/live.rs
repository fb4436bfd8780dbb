//! Every program's process group alive in this process, under one lock with every spawn, kill and reap
//! of a program.
//!
//! A group is listed exactly while its leader is unreaped. A process id is not reused while a process
//! (even a dead, unreaped one) holds it, so a listed group's id is still that group's: a kill of a listed
//! group can never reach a stranger's group that got the same id after the leader was reaped. The
//! leader is reaped only after its group has been killed, under the lock.

use std::collections::BTreeSet;
use std::io;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What is alive: the process groups, by their leader's pid.
struct Live {
    groups: BTreeSet<i32>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    groups: BTreeSet::new(),
});

fn live() -> MutexGuard<'static, Live> {
    // A panic elsewhere while holding the lock leaves the lists as they were: still right.
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts `command`, whose child leads a process group of its own, and lists the group before anyone
/// can see the child.
pub(super) fn spawn(command: &mut Command) -> io::Result<Child> {
    let mut live = live();
    let child = command.spawn()?;
    live.groups.insert(pid_of(&child));
    Ok(child)
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
