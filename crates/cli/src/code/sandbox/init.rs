//! One kill ends a code process's whole tree.
//!
//! The process the referee starts (the keeper) has made a new PID namespace; its one child is that
//! namespace's init and becomes the interpreter. When an init exits or is killed, the kernel kills
//! every other process in its namespace, `setsid` or not, double-forked or not, and reaps them before
//! the init's own exit is seen: nothing a student's code starts outlives its move (the course format)
//! or its game (the function format), nor gridarena. The keeper only waits: it holds no descriptor,
//! and exits as its child did, so the referee reads the interpreter's own exit status, and the
//! interpreter's CPU time is in the keeper's children's time.
//!
//! Everything here runs between fork and exec: plain system calls, no allocation.

use std::io;

/// How many descriptors the keeper closes one by one where the kernel has no `close_range`.
const FALLBACK_DESCRIPTORS: libc::c_int = 65_536;

/// Forks the namespace's init. Returns in the init, once it is sure to die with the keeper; the
/// keeper never returns.
pub fn split() -> io::Result<()> {
    let mut alive = [0; 2];
    // SAFETY: alive is a live array of two descriptors, as pipe2 wants.
    if unsafe { libc::pipe2(alive.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let [alive_read, alive_write] = alive;
    // SAFETY: the calling process has one thread (it is a fork's child), so fork is sound.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        0 => {
            // SAFETY: plain system calls on our own descriptors.
            unsafe {
                libc::close(alive_write);
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The keeper may have died before the prctl: its end of the pipe is closed then.
                let mut poll = libc::pollfd {
                    fd: alive_read,
                    events: libc::POLLIN,
                    revents: 0,
                };
                let gone = libc::poll(&mut poll, 1, 0) != 0;
                libc::close(alive_read);
                if gone {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
            }
            Ok(())
        }
        init => keep(init, alive_write),
    }
}

/// The keeper: closes every descriptor but the one that tells the init it lives (so the referee's
/// pipes end when the interpreter's do), waits for the init and exits as it did.
fn keep(init: libc::pid_t, alive: libc::c_int) -> ! {
    close_all_but(alive);
    let mut status = 0;
    loop {
        // SAFETY: status is a live local; init is our child.
        let r = unsafe { libc::waitpid(init, &mut status, 0) };
        if r == init {
            break;
        }
        if io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            // SAFETY: _exit ends this process at once.
            unsafe { libc::_exit(127) }
        }
    }
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        // SAFETY: plain system calls on this process itself; no core is dumped (RLIMIT_CORE is 0).
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal)
        }
    }
    // SAFETY: as above.
    unsafe { libc::_exit(libc::WEXITSTATUS(status)) }
}

/// Closes every descriptor of this process but `keep`.
fn close_all_but(keep: libc::c_int) {
    let Ok(keep) = libc::c_uint::try_from(keep) else {
        return;
    };
    // SAFETY: close_range takes plain numbers; a range with nothing open in it is fine.
    let closed = unsafe {
        (keep == 0 || libc::syscall(libc::SYS_close_range, 0, keep - 1, 0) == 0)
            && libc::syscall(libc::SYS_close_range, keep + 1, libc::c_uint::MAX, 0) == 0
    };
    if !closed {
        // Before Linux 5.9: one by one, as far as gridarena could have opened.
        for fd in 0..FALLBACK_DESCRIPTORS {
            if fd != keep as libc::c_int {
                // SAFETY: closing a descriptor that is not open only fails.
                unsafe { libc::close(fd) };
            }
        }
    }
}
