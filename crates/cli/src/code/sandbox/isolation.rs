//! Which of the sandbox's layers this machine gives, and whether code may run here.
//!
//! Code runs only where every layer holds: each closes something no other layer does (files:
//! Landlock; Unix sockets reached by a path: seccomp; the processes a student leaves behind and
//! signals to the teacher's: the PID namespace). A machine that lacks one refuses before the first
//! game, naming what is missing, unless the teacher trusts every entry (`--unconfined-code`).

use super::{landlock, seccomp};
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The oldest Landlock that confines files: before its third version a process could still truncate
/// any file it may not write.
const LANDLOCK_MIN: u8 = 3;

/// Which of the sandbox's layers this machine gives; probed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// Whether new user, network and PID namespaces can be made without root.
    pub namespaces: bool,
    /// The kernel's Landlock ABI version (at most the newest the sandbox uses), if it has Landlock.
    pub landlock: Option<u8>,
    /// Whether a seccomp filter can be installed.
    pub seccomp: bool,
}

impl Isolation {
    /// What this machine gives, probed the first time.
    pub fn get() -> Isolation {
        static PROBED: OnceLock<Isolation> = OnceLock::new();
        *PROBED.get_or_init(|| Isolation {
            namespaces: namespaces_work(),
            landlock: landlock::abi(),
            seccomp: seccomp_works(),
        })
    }

    /// What code could do here that it should not: one line per missing layer, none where every
    /// layer holds.
    pub fn shortfall(&self) -> Vec<String> {
        let mut gaps = Vec::new();
        match self.landlock {
            None => gaps.push(
                "this kernel has no Landlock (Linux 5.13 or later, turned on), so a student's code \
                 could read and write your files"
                    .to_string(),
            ),
            Some(abi) if abi < LANDLOCK_MIN => gaps.push(format!(
                "this kernel's Landlock is version {abi}, and before version {LANDLOCK_MIN} (Linux \
                 6.2) a student's code could truncate your files"
            )),
            Some(_) => {}
        }
        if !self.seccomp {
            gaps.push(
                "this machine cannot install a seccomp filter, so a student's code could connect to \
                 any Unix socket you can (your session bus, which starts any command as you; SSH \
                 and GPG agents) and open sockets of every family"
                    .to_string(),
            );
        }
        if !self.namespaces {
            gaps.push(
                "this machine refuses new user namespaces to unprivileged users, so a student's \
                 processes could outlive their game and signal yours"
                    .to_string(),
            );
        }
        gaps
    }

    /// Whether code may run here: the lines to say once before it does, or why it may not. With
    /// `unconfined` (the teacher trusts every entry) each missing layer is said and the code runs.
    pub fn check(&self, unconfined: bool) -> Result<Vec<String>, String> {
        let gaps = self.shortfall();
        if gaps.is_empty() {
            return Ok(Vec::new());
        }
        if unconfined {
            return Ok(gaps
                .iter()
                .map(|gap| format!("code entries run unconfined (--unconfined-code): {gap}"))
                .collect());
        }
        Err(format!(
            "code entries cannot be confined here: {}.\nNothing was run. Play them on a machine \
             that confines them (Linux 6.2 or later with Landlock, seccomp and unprivileged user \
             namespaces), or, if you trust every entry's code, run again with --unconfined-code.",
            gaps.join("; and ")
        ))
    }
}

/// Runs `/bin/sh -c 'exit 0'` after `layer` in the child: whether the layer can be set up here.
fn works(layer: impl FnMut() -> io::Result<()> + Send + Sync + 'static) -> bool {
    let mut probe = Command::new("/bin/sh");
    probe
        .args(["-c", "exit 0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: each layer probed is plain system calls, safe between fork and exec.
    unsafe {
        probe.pre_exec(layer);
    }
    probe.status().is_ok_and(|s| s.success())
}

fn namespaces_work() -> bool {
    works(|| {
        // SAFETY: unshare is a plain system call.
        let flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNET | libc::CLONE_NEWPID;
        if unsafe { libc::unshare(flags) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    })
}

fn seccomp_works() -> bool {
    match seccomp::program() {
        Ok(filter) => works(move || seccomp::apply(&filter)),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_runs_only_where_every_layer_holds_unless_the_teacher_trusts_it() {
        let full = Isolation {
            namespaces: true,
            landlock: Some(6),
            seccomp: true,
        };
        assert_eq!(full.check(false), Ok(Vec::new()));
        // Landlock 3 confines files; signals and abstract sockets are the namespaces' to close.
        let older = Isolation {
            landlock: Some(3),
            ..full
        };
        assert_eq!(older.check(false), Ok(Vec::new()));
        for (isolation, reason) in [
            (
                Isolation {
                    landlock: None,
                    ..full
                },
                "read and write your files",
            ),
            (
                Isolation {
                    landlock: Some(2),
                    ..full
                },
                "truncate your files",
            ),
            (
                Isolation {
                    seccomp: false,
                    ..full
                },
                "Unix socket",
            ),
            (
                // Landlock's TCP rules alone are no network cut: UDP and Unix sockets go out.
                Isolation {
                    namespaces: false,
                    ..full
                },
                "outlive their game and signal yours",
            ),
        ] {
            let refused = isolation.check(false).expect_err("refused");
            assert!(refused.contains(reason), "{refused}");
            assert!(refused.contains("--unconfined-code"), "{refused}");
            assert!(refused.contains("Nothing was run"), "{refused}");
            let warned = isolation.check(true).expect("trusted");
            assert_eq!(warned.len(), 1, "{warned:?}");
            assert!(warned[0].contains(reason), "{warned:?}");
        }
        let bare = Isolation {
            namespaces: false,
            landlock: None,
            seccomp: false,
        };
        assert_eq!(bare.check(true).expect("trusted").len(), 3);
        let refused = bare.check(false).expect_err("refused");
        assert!(
            refused.contains("files") && refused.contains("Unix socket"),
            "{refused}"
        );
    }
}
