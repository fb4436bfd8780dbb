//! What a student's process may do on the teacher's machine, with what Linux gives without root.
//!
//! A class's code is untrusted by nature: a student may, on purpose or by mistake, try the network,
//! write outside its folder, read the teacher's files, signal the teacher's processes or grow without
//! bound. Each code process (the course script for each move, the function runner for each game) is
//! started with:
//! - a new user and network namespace (`unshare` before `exec`): no interface but a loopback that is
//!   down, so no connection reaches this machine's servers or anyone else's;
//! - Landlock, where the kernel has it: reads and runs only under the system's folders, the
//!   interpreter's own installation and its module folders; writes only in the game's folder (and
//!   `/dev/null`); no TCP bind or connect; no signal to, and no abstract socket of, a process outside
//!   its own sandbox;
//! - rlimits: 1 GiB of address space as the page's per-player cap, files of 64 MiB at most, 256 open
//!   files, no core file, and [`CPU_LIMIT`] of CPU time as a backstop for a process that escapes its
//!   group's kill;
//! - a clean environment, so neither the teacher's tokens nor their `PYTHON*`/`NODE_*` settings reach
//!   the code.
//!
//! Where a measure is missing (an old kernel, a distribution that forbids unprivileged namespaces)
//! [`Isolation::check`] decides: without Landlock a student's code could read the teacher's files, and
//! without either the namespaces or Landlock's network rules it could use the network, so nothing runs
//! unless the teacher says they trust every entry (`--unconfined-code`); a lesser gap (Landlock's
//! network rules standing in for the namespaces) is said once and the code runs.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

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
/// CPU seconds one code process may use: past the course's 300 s clock and its grace, and room for a
/// function runner's whole game; a process its group's kill missed (it left the group) dies here.
pub const CPU_LIMIT: u64 = 900;

/// Which of the sandbox's measures this machine offers; probed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// Whether a new user and network namespace can be made without root.
    pub namespaces: bool,
    /// The kernel's Landlock ABI version, if it has Landlock.
    pub landlock: Option<i64>,
}

impl Isolation {
    /// What this machine offers, probed the first time.
    pub fn get() -> Isolation {
        static PROBED: OnceLock<Isolation> = OnceLock::new();
        *PROBED.get_or_init(|| Isolation {
            namespaces: namespaces_work(),
            landlock: landlock_abi(),
        })
    }

    /// What code could do here that it should not, if this machine cannot confine it: `None` where
    /// the file system is confined (Landlock) and the network cut (the namespaces, or Landlock's own
    /// TCP rules from its fourth version).
    pub fn shortfall(&self) -> Option<String> {
        let network_cut = self.namespaces || self.landlock.is_some_and(|abi| abi >= 4);
        match (self.landlock.is_some(), network_cut) {
            (true, true) => None,
            (false, true) => Some(
                "this kernel lacks Landlock, so a student's code could read and write your files"
                    .to_string(),
            ),
            (true, false) => Some(
                "this machine refuses new user namespaces to unprivileged users and its Landlock has no \
                 network rules, so a student's code could use the network"
                    .to_string(),
            ),
            (false, false) => Some(
                "this machine offers neither Landlock nor unprivileged user namespaces, so a student's \
                 code could read and write your files and use the network"
                    .to_string(),
            ),
        }
    }

    /// Whether code may run here: the lines to say once before it does, or why it may not. With
    /// `unconfined` (the teacher trusts every entry) a shortfall is said and the code runs.
    pub fn check(&self, unconfined: bool) -> Result<Vec<String>, String> {
        match self.shortfall() {
            Some(why) if !unconfined => Err(format!(
                "code entries cannot be confined here: {why}.\nNothing was run. Play them on a machine \
                 that confines them (Linux 6.7 or later with Landlock and unprivileged user namespaces), \
                 or, if you trust every entry's code, run again with --unconfined-code."
            )),
            _ => Ok(self.warnings()),
        }
    }

    /// One line for each measure missing here, to be said once before code runs.
    pub fn warnings(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.namespaces {
            lines.push(format!(
                "code entries run without network isolation: this machine refuses new user namespaces \
                 to unprivileged users{}",
                if self.landlock.is_some_and(|abi| abi >= 4) {
                    " (Landlock still refuses their TCP connections)"
                } else {
                    ""
                }
            ));
        }
        if self.landlock.is_none() {
            lines.push(
                "code entries run without Landlock: this kernel lacks it, so they may read and write \
                 wherever you may, signal your processes and, without network isolation, use the network"
                    .to_string(),
            );
        }
        lines
    }
}

/// How code processes of one interpreter are confined: the folders they may read besides the system's.
#[derive(Clone, Debug)]
pub struct Sandbox {
    read_roots: Vec<PathBuf>,
    env: Vec<(String, String)>,
    address_limit: u64,
}

/// The system's folders a code process may read and run from.
const SYSTEM_ROOTS: [&str; 13] = [
    "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin", "/etc", "/opt", "/nix", "/snap", "/proc",
    "/sys", "/dev",
];

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
    /// exec. Must be called before any other `pre_exec` that depends on the process's credentials (a
    /// new user namespace resets the parent-death signal).
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
        let ruleset = match isolation.landlock {
            Some(abi) => Some(ruleset(abi, &self.read_roots, game_dir)?),
            None => None,
        };
        let unshare = isolation.namespaces;
        let address_limit = self.address_limit;
        // SAFETY: the closure runs in the child between fork and exec: it only makes system calls and
        // allocates nothing (the ruleset's descriptor was made before the fork).
        unsafe {
            command.pre_exec(move || {
                if unshare && libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                    return Err(io::Error::last_os_error());
                }
                limits(address_limit)?;
                if let Some(fd) = &ruleset {
                    if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    if libc::syscall(SYS_RESTRICT_SELF, fd.as_raw_fd(), 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        Ok(())
    }
}

/// Sets the rlimits; runs between fork and exec.
fn limits(address_limit: u64) -> io::Result<()> {
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
    set(libc::RLIMIT_CORE, 0, 0)?;
    // The hard limit a little later, so SIGXCPU comes first and SIGKILL only to one that ignores it.
    set(libc::RLIMIT_CPU, CPU_LIMIT, CPU_LIMIT + 5)
}

/// Whether this machine lets us make a new user and network namespace: tried on a child that does
/// nothing else.
fn namespaces_work() -> bool {
    let mut probe = Command::new("/bin/sh");
    probe
        .args(["-c", "exit 0"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: unshare is a plain system call, safe between fork and exec.
    unsafe {
        probe.pre_exec(|| {
            if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    probe.status().is_ok_and(|s| s.success())
}

// Landlock's system calls (the same numbers on every architecture) and constants, from
// <linux/landlock.h>.
const SYS_CREATE_RULESET: libc::c_long = 444;
const SYS_ADD_RULE: libc::c_long = 445;
const SYS_RESTRICT_SELF: libc::c_long = 446;
const CREATE_RULESET_VERSION: u32 = 1;
const RULE_PATH_BENEATH: u32 = 1;

const FS_EXECUTE: u64 = 1 << 0;
const FS_WRITE_FILE: u64 = 1 << 1;
const FS_READ_FILE: u64 = 1 << 2;
const FS_READ_DIR: u64 = 1 << 3;
/// Every access of Landlock's first version: bits 0 to 12.
const FS_V1: u64 = (1 << 13) - 1;
const FS_REFER: u64 = 1 << 13;
const FS_TRUNCATE: u64 = 1 << 14;
const FS_IOCTL_DEV: u64 = 1 << 15;
const NET_BIND_TCP: u64 = 1 << 0;
const NET_CONNECT_TCP: u64 = 1 << 1;
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// The kernel's Landlock ABI version, or `None` where it has none (or it is turned off).
fn landlock_abi() -> Option<i64> {
    // SAFETY: with a null attribute and the version flag the call only reports the version.
    let v = unsafe {
        libc::syscall(
            SYS_CREATE_RULESET,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    (v >= 1).then_some(v)
}

/// A Landlock ruleset for a process of `game_dir`: everything handled that ABI `abi` knows, reads and
/// runs allowed under `roots` and the system's folders, everything allowed in `game_dir`.
fn ruleset(abi: i64, roots: &[PathBuf], game_dir: &Path) -> Result<OwnedFd, String> {
    let mut fs = FS_V1;
    if abi >= 2 {
        fs |= FS_REFER;
    }
    if abi >= 3 {
        fs |= FS_TRUNCATE;
    }
    if abi >= 5 {
        fs |= FS_IOCTL_DEV;
    }
    let attr = RulesetAttr {
        handled_access_fs: fs,
        handled_access_net: if abi >= 4 {
            NET_BIND_TCP | NET_CONNECT_TCP
        } else {
            0
        },
        scoped: if abi >= 6 {
            SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
        } else {
            0
        },
    };
    let size: usize = match abi {
        1..=3 => 8,
        4 | 5 => 16,
        _ => std::mem::size_of::<RulesetAttr>(),
    };
    // SAFETY: attr is a live local of at least `size` bytes.
    let fd = unsafe { libc::syscall(SYS_CREATE_RULESET, &attr, size, 0u32) };
    let fd = i32::try_from(fd)
        .ok()
        .filter(|&fd| fd >= 0)
        .ok_or_else(|| format!("Landlock refused a ruleset: {}", io::Error::last_os_error()))?;
    // SAFETY: the kernel just gave us this descriptor, with close-on-exec set.
    let ruleset = unsafe { OwnedFd::from_raw_fd(fd) };
    let file_rights =
        FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | (fs & (FS_TRUNCATE | FS_IOCTL_DEV));
    let read = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;
    let system = SYSTEM_ROOTS.iter().map(PathBuf::from);
    for root in system.chain(roots.iter().cloned()) {
        // A folder this machine lacks is simply not allowed.
        let _ = allow(&ruleset, &root, read, file_rights);
    }
    allow(
        &ruleset,
        Path::new("/dev/null"),
        FS_READ_FILE | FS_WRITE_FILE | (fs & FS_TRUNCATE),
        file_rights,
    )
    .map_err(|e| format!("Landlock refused /dev/null: {e}"))?;
    allow(&ruleset, game_dir, fs, file_rights)
        .map_err(|e| format!("Landlock refused {}: {e}", game_dir.display()))?;
    Ok(ruleset)
}

/// Allows `access` under `path` (only its file rights, when `path` is a file).
fn allow(ruleset: &OwnedFd, path: &Path, access: u64, file_rights: u64) -> io::Result<()> {
    let name = CString::new(path.as_os_str().as_bytes()).map_err(io::Error::other)?;
    // SAFETY: name is a live C string; O_PATH opens nothing but a handle.
    let fd = unsafe { libc::open(name.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: open just gave us this descriptor.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let is_dir = std::fs::metadata(path)?.is_dir();
    let rule = PathBeneathAttr {
        allowed_access: if is_dir { access } else { access & file_rights },
        parent_fd: fd.as_raw_fd(),
    };
    // SAFETY: rule is a live local; both descriptors are open.
    let r = unsafe {
        libc::syscall(
            SYS_ADD_RULE,
            ruleset.as_raw_fd(),
            RULE_PATH_BENEATH,
            &rule,
            0u32,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_that_could_reach_files_or_the_network_runs_only_when_the_teacher_trusts_it() {
        let full = Isolation {
            namespaces: true,
            landlock: Some(6),
        };
        assert_eq!(full.check(false), Ok(Vec::new()));
        // Landlock's TCP rules stand in for the namespaces: said, not refused.
        let tcp_only = Isolation {
            namespaces: false,
            landlock: Some(4),
        };
        let said = tcp_only.check(false).expect("runs");
        assert_eq!(said.len(), 1);
        assert!(
            said[0].contains("Landlock still refuses their TCP"),
            "{said:?}"
        );
        for (isolation, reason) in [
            (
                Isolation {
                    namespaces: true,
                    landlock: None,
                },
                "read and write your files",
            ),
            (
                Isolation {
                    namespaces: false,
                    landlock: Some(3),
                },
                "use the network",
            ),
            (
                Isolation {
                    namespaces: false,
                    landlock: None,
                },
                "your files and use the network",
            ),
        ] {
            let refused = isolation.check(false).expect_err("refused");
            assert!(refused.contains(reason), "{refused}");
            assert!(refused.contains("--unconfined-code"), "{refused}");
            assert!(refused.contains("Nothing was run"), "{refused}");
            let warned = isolation.check(true).expect("trusted");
            assert!(!warned.is_empty(), "{isolation:?}");
        }
    }

    #[test]
    fn a_confined_shell_writes_in_its_folder_only_and_reaches_no_network() {
        let isolation = Isolation::get();
        let dir = std::env::temp_dir().join(format!("gridarena-sandbox-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let outside =
            std::env::temp_dir().join(format!("gridarena-sandbox-outside-{}", std::process::id()));
        let _ = std::fs::remove_file(&outside);
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(format!(
                "echo in > inside.txt; echo out > {}; echo $HOME",
                outside.display()
            ))
            .current_dir(&dir);
        Sandbox::new(Vec::new(), Vec::new(), MEMORY_LIMIT)
            .confine(&mut command, &dir)
            .expect("a sandbox");
        let output = command.output().expect("sh runs");
        let inside = std::fs::read_to_string(dir.join("inside.txt"));
        let escaped = outside.exists();
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&outside);
        assert_eq!(inside.ok().as_deref(), Some("in\n"));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout).trim(),
            dir.display().to_string()
        );
        if isolation.landlock.is_some() {
            assert!(!escaped, "a write outside the game's folder went through");
        }
    }
}
