//! The seccomp layer: system calls no student's code needs and that reach past what the other layers
//! close.
//!
//! - `socket`, of every family. A Unix socket reached by a path (the session bus, through which
//!   `systemd-run --user` starts any command as the teacher; SSH and GPG agents; X11; `docker.sock`)
//!   is a file Landlock does not check on `connect`, and the network namespace does not hold it. With
//!   no `socket` at all, every family is closed whether or not the namespaces could be made. seccomp
//!   cannot read the path behind `connect`'s pointer, so the socket is refused where it is made.
//!   `socketpair` stays: its two ends are already connected to each other (Python's asyncio, Node's
//!   child processes use it).
//! - `io_uring_setup`: its rings make sockets and open files without the system calls above.
//! - the kernel's keyrings (`add_key`, `request_key`, `keyctl`): the teacher's session keyring may
//!   hold credentials.
//! - `ptrace`, `process_vm_readv`/`writev`, `bpf`, `perf_event_open`, `userfaultfd`: reading or
//!   steering another process, or the kernel's most exposed surfaces; Landlock already scopes
//!   `ptrace`, this refuses it outright.
//!
//! A refused call fails with `EACCES`, so Python raises `PermissionError` and the function runner's
//! audit hook still names a network attempt.

use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};
use std::collections::BTreeMap;

/// On x86-64, the x32 ABI reaches the same calls with this bit set and the same architecture token.
#[cfg(target_arch = "x86_64")]
const X32_BIT: i64 = 0x4000_0000;

/// The calls refused.
// `c_long` is `i64` only on 64-bit targets.
#[allow(clippy::useless_conversion)]
fn refused() -> Vec<i64> {
    let calls = [
        libc::SYS_socket,
        libc::SYS_io_uring_setup,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_keyctl,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
    ];
    #[allow(unused_mut)]
    let mut numbers: Vec<i64> = calls.iter().map(|&n| i64::from(n)).collect();
    #[cfg(target_arch = "x86_64")]
    numbers.extend(calls.iter().map(|&n| i64::from(n) | X32_BIT));
    numbers
}

/// The filter for this machine's architecture; an error where seccompiler does not know it. A call
/// made through another architecture's ABI (32-bit calls on a 64-bit kernel) kills the process.
pub fn program() -> Result<BpfProgram, String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| format!("no seccomp filter for this architecture: {e}"))?;
    let rules: BTreeMap<i64, Vec<seccompiler::SeccompRule>> =
        refused().into_iter().map(|n| (n, Vec::new())).collect();
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(|e| format!("the seccomp filter could not be made: {e}"))?;
    BpfProgram::try_from(filter)
        .map_err(|e| format!("the seccomp filter could not be compiled: {e}"))
}

/// Installs `program` on the calling thread; runs between fork and exec, allocating nothing.
pub fn apply(program: &BpfProgram) -> std::io::Result<()> {
    seccompiler::apply_filter(program).map_err(|e| match e {
        seccompiler::Error::Seccomp(e) | seccompiler::Error::Prctl(e) => e,
        _ => std::io::Error::from_raw_os_error(libc::EINVAL),
    })
}
