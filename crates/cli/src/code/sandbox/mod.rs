//! What a student's process may do on the teacher's machine, with what Linux gives without root.
//!
//! A class's code is untrusted by nature: a student may, on purpose or by mistake, try the network,
//! a Unix socket of the teacher's session, the teacher's files or processes, or grow without bound.
//! Each code process (a course entry's warm interpreter, whose forks run its moves, and the function
//! runner, each one per game) is started in layers, each closing what the others leave open
//! (docs/code-players.md has the threat model):
//! - a session of its own, so it has no terminal to read or type into;
//! - new user, network and PID namespaces: no interface but a loopback that is down, no abstract Unix
//!   socket of anyone else, no process outside its own to see or signal, and one kill ends its whole
//!   tree ([`init`]);
//! - rlimits: 1 GiB of address space as the page's per-player cap, files of 64 MiB at most, 256 open
//!   files, [`PROCESS_LIMIT`] processes, no core file, and [`CPU_LIMIT`] of CPU time;
//! - Landlock ([`landlock`]): reads and runs only under the system's and the interpreter's folders,
//!   writes only in its game's folder;
//! - a seccomp filter ([`seccomp`]): no socket of any family, so no Unix socket reached by a path
//!   either, and no io_uring, keyring or ptrace;
//! - a clean environment, so neither the teacher's tokens nor their `PYTHON*`/`NODE_*` settings reach
//!   the code.
//!
//! [`Isolation::check`] refuses to run code where a layer is missing, unless the teacher trusts every
//! entry (`--unconfined-code`).

mod init;
mod isolation;
mod landlock;
mod seccomp;

pub use isolation::Isolation;

use crate::program::live;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The address space one Python process may use, as the page's per-player cap.
pub const MEMORY_LIMIT: u64 = 1 << 30;
/// The address space one Node process may use. V8 reserves address space far beyond what it uses (its
/// code range, a second isolate for the module hooks), so Node's memory is capped by its heap limit
/// (`--max-old-space-size`, [`MEMORY_LIMIT`]) and this only keeps a runaway from the machine's memory.
pub const NODE_ADDRESS_LIMIT: u64 = 4 << 30;
/// The largest file a code process may write.
pub const FILE_SIZE_LIMIT: u64 = 64 << 20;
/// The most files a code process may hold open.
pub const OPEN_FILES_LIMIT: u64 = 256;
/// The most processes and threads of one sandbox at once (Node runs about a dozen threads): a fork
/// bomb stops here. Linux does not apply this limit to root.
pub const PROCESS_LIMIT: u64 = 128;
/// CPU seconds one code process may use: past the course's 300 s clock and its grace, and room for a
/// function runner's whole game.
pub const CPU_LIMIT: u64 = 900;

/// How code processes of one interpreter are confined: the folders they may read besides the system's.
#[derive(Clone, Debug)]
pub struct Sandbox {
    read_roots: Vec<PathBuf>,
    env: Vec<(String, String)>,
    address_limit: u64,
}

impl Sandbox {
    /// A sandbox that also lets code read `roots` (the interpreter's installation and module folders),
    /// sets `env` (beyond `PATH`, `HOME`, `TMPDIR` and the locale) and caps the address space at
    /// `address_limit` bytes.
    pub fn new(roots: Vec<PathBuf>, env: Vec<(String, String)>, address_limit: u64) -> Sandbox {
        Sandbox {
            read_roots: roots,
            env,
            address_limit,
        }
    }

    /// Readies `command` to run confined to `game_dir`: its environment now, the rest between fork and
    /// exec. The command must not be given a process group: it leads a session of its own, whose id
    /// is its pid, as a group's would be. It dies with gridarena however gridarena ends, so it must be
    /// started with [`live::spawn`]'s `arranged`.
    pub fn confine(&self, command: &mut Command, game_dir: &Path) -> Result<(), String> {
        command.env_clear();
        command
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", game_dir)
            .env("TMPDIR", game_dir)
            .env("LANG", "C.UTF-8")
            .env("LC_ALL", "C.UTF-8");
        for (key, value) in &self.env {
            command.env(key, value);
        }
        let isolation = Isolation::get();
        // Everything that allocates is made before the fork.
        let mut ruleset = match isolation.landlock {
            Some(_) => Some(landlock::ruleset(&self.read_roots, game_dir)?),
            None => None,
        };
        let filter = if isolation.seccomp {
            Some(seccomp::program()?)
        } else {
            None
        };
        let namespaces = isolation.namespaces;
        // The process limit counts this sandbox's own processes only in a user namespace of its own
        // on Linux 5.14 or later (every machine with Landlock 3 is): elsewhere it would count all the
        // teacher's, and a desktop has more than the limit.
        let limit_processes = namespaces && isolation.landlock.is_some_and(|abi| abi >= 3);
        let address_limit = self.address_limit;
        let gridarena = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
        // SAFETY: the closure runs in the child between fork and exec: it only makes system calls and
        // allocates nothing (the ruleset and the filter were made before the fork).
        unsafe {
            command.pre_exec(move || {
                if libc::setsid() == -1 {
                    return Err(io::Error::last_os_error());
                }
                if namespaces
                    && libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET | libc::CLONE_NEWPID)
                        != 0
                {
                    return Err(io::Error::last_os_error());
                }
                // After the new user namespace, which clears the parent-death signal.
                live::die_with(gridarena)?;
                limits(address_limit, limit_processes)?;
                if namespaces {
                    // From here on, this is the namespace's init; the keeper stays behind.
                    init::split()?;
                }
                if let Some(ruleset) = ruleset.take() {
                    landlock::restrict(ruleset)?;
                }
                if let Some(filter) = &filter {
                    seccomp::apply(filter)?;
                }
                Ok(())
            });
        }
        Ok(())
    }
}

/// Sets the rlimits; runs between fork and exec.
fn limits(address_limit: u64, limit_processes: bool) -> io::Result<()> {
    let set = |resource, soft: u64, hard: u64| {
        let limit = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        // SAFETY: limit is a live local.
        if unsafe { libc::setrlimit(resource, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    };
    set(libc::RLIMIT_AS, address_limit, address_limit)?;
    set(libc::RLIMIT_FSIZE, FILE_SIZE_LIMIT, FILE_SIZE_LIMIT)?;
    set(libc::RLIMIT_NOFILE, OPEN_FILES_LIMIT, OPEN_FILES_LIMIT)?;
    if limit_processes {
        set(libc::RLIMIT_NPROC, PROCESS_LIMIT, PROCESS_LIMIT)?;
    }
    set(libc::RLIMIT_CORE, 0, 0)?;
    // The hard limit a little later, so SIGXCPU comes first and SIGKILL only to one that ignores it
    // (a namespace's init ignores SIGXCPU: it has no default action there).
    set(libc::RLIMIT_CPU, CPU_LIMIT, CPU_LIMIT + 5)
}

#[cfg(test)]
mod tests;
