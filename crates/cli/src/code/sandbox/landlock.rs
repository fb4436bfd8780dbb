//! The Landlock layer, through its maintainer's crate: what a code process may read, run and write.
//!
//! Reads and runs only under the system's folders and the interpreter's own; writes only in its
//! game's folder and `/dev/null`; from the devices, only the few an interpreter reads (so not
//! `/dev/shm`, where other programs of the teacher share memory, nor a terminal). `/proc` is not
//! allowed at all: a process there could read every other process's command line. Where the kernel
//! has them, TCP bind and connect are refused too, and signals and abstract Unix sockets are scoped to
//! the sandbox (the namespaces and the seccomp filter close both as well).

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, Scope, ABI,
};
use std::path::{Path, PathBuf};

/// The newest ABI whose rights the sandbox asks for: scoped signals and abstract sockets.
const NEWEST: ABI = ABI::V6;

/// The system's folders a code process may read and run from.
const SYSTEM_ROOTS: [&str; 11] = [
    "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin", "/etc", "/opt", "/nix", "/snap", "/sys",
];

/// The devices a code process may read: what interpreters open for randomness and empty input.
const READ_DEVICES: [&str; 4] = ["/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"];

/// The kernel's Landlock ABI (at most [`NEWEST`], the newest this sandbox uses), or `None` where it
/// has none or it is turned off: the newest version whose every right a ruleset can be made with.
pub fn abi() -> Option<u8> {
    for (abi, number) in [
        (ABI::V6, 6),
        (ABI::V5, 5),
        (ABI::V4, 4),
        (ABI::V3, 3),
        (ABI::V2, 2),
        (ABI::V1, 1),
    ] {
        if handled(abi, CompatLevel::HardRequirement)
            .and_then(|r| r.create().map_err(|e| e.to_string()))
            .is_ok()
        {
            return Some(number);
        }
    }
    None
}

/// A ruleset that handles every right of `abi` (file system, TCP from the fourth version, scopes from
/// the sixth), each required at `level`.
fn handled(abi: ABI, level: CompatLevel) -> Result<Ruleset, String> {
    let mut ruleset = Ruleset::default()
        .set_compatibility(level)
        .handle_access(AccessFs::from_all(abi))
        .map_err(|e| e.to_string())?;
    if abi >= ABI::V4 {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(abi))
            .map_err(|e| e.to_string())?;
    }
    if abi >= ABI::V6 {
        ruleset = ruleset
            .scope(Scope::from_all(abi))
            .map_err(|e| e.to_string())?;
    }
    Ok(ruleset)
}

/// The ruleset for a process of `game_dir`, made before the fork: reads and runs under `roots` and the
/// system's folders, everything in `game_dir`. Every right this kernel has is handled (best effort
/// against the newest ABI, so an older kernel handles what it knows); a folder this machine lacks is
/// simply not allowed.
pub fn ruleset(roots: &[PathBuf], game_dir: &Path) -> Result<RulesetCreated, String> {
    let refused = |what: &str, e: String| format!("Landlock refused {what}: {e}");
    let mut created = handled(NEWEST, CompatLevel::BestEffort)
        .and_then(|r| r.create().map_err(|e| e.to_string()))
        .map_err(|e| refused("a ruleset", e))?;
    let read = AccessFs::from_read(NEWEST);
    let file = AccessFs::from_file(NEWEST);
    let system = SYSTEM_ROOTS.iter().map(PathBuf::from);
    for root in system.chain(roots.iter().cloned()) {
        if let Ok(fd) = PathFd::new(&root) {
            let access = if root.is_dir() { read } else { read & file };
            created = created
                .add_rule(PathBeneath::new(fd, access))
                .map_err(|e| refused(&root.display().to_string(), e.to_string()))?;
        }
    }
    for device in READ_DEVICES {
        if let Ok(fd) = PathFd::new(device) {
            created = created
                .add_rule(PathBeneath::new(fd, AccessFs::ReadFile))
                .map_err(|e| refused(device, e.to_string()))?;
        }
    }
    let null = PathFd::new("/dev/null").map_err(|e| refused("/dev/null", e.to_string()))?;
    created = created
        .add_rule(PathBeneath::new(
            null,
            AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
        ))
        .map_err(|e| refused("/dev/null", e.to_string()))?;
    let game = PathFd::new(game_dir).map_err(|e| refused("its game's folder", e.to_string()))?;
    created
        .add_rule(PathBeneath::new(game, AccessFs::from_all(NEWEST)))
        .map_err(|e| refused(&game_dir.display().to_string(), e.to_string()))
}

/// Confines the calling thread with `ruleset` (and sets no-new-privileges); runs between fork and exec.
pub fn restrict(ruleset: RulesetCreated) -> std::io::Result<()> {
    match ruleset.restrict_self() {
        Ok(_) => Ok(()),
        Err(_) => Err(std::io::Error::from_raw_os_error(libc::EPERM)),
    }
}
