//! One server process per SQLite file: an exclusive `flock(2)` on the database file itself, taken before
//! SQLite opens it and held until the store is dropped. The kernel drops it when the process ends,
//! however it ends (kill -9 included), so a crashed server never leaves a stale lock. A second open, in
//! this process or another, fails at once with [`OpenError::Locked`].
//!
//! `flock` locks are apart from the POSIX (`fcntl`) locks SQLite takes on the same file, so the two do
//! not interfere. Elsewhere than Unix there is no such lock.

use crate::store::{OpenError, StoreError};
use std::fs::{File, OpenOptions};
use std::path::Path;

/// Opens (creating it if missing: SQLite takes an empty file for a new database) and locks `path`.
pub(super) fn lock(path: &Path) -> Result<File, OpenError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| {
            OpenError::Other(StoreError(format!("cannot open {}: {e}", path.display())))
        })?;
    try_lock(&file, path)?;
    Ok(file)
}

#[cfg(unix)]
fn try_lock(file: &File, path: &Path) -> Result<(), OpenError> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open for the call.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        return Ok(());
    }
    let err = std::io::Error::last_os_error();
    if err.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Err(OpenError::Locked {
            path: path.display().to_string(),
        })
    } else {
        Err(OpenError::Other(StoreError(format!(
            "cannot lock {}: {err}",
            path.display()
        ))))
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &File, _path: &Path) -> Result<(), OpenError> {
    Ok(())
}
