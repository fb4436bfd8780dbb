//! A code process's game folder has a size quota, measured by the referee, never by the code.
//!
//! The folder is usually in `/tmp`, which is memory on many systems: a game that writes file after
//! file (each under the 64 MiB rlimit) would fill the machine's memory. A watcher measures the folder
//! while the process runs and kills its whole tree once the folder holds more than [`FOLDER_QUOTA`];
//! the move then fails, named. It is a watch, not a file system's quota: a process may overshoot by
//! what it writes in one [`WATCH`] (an unprivileged process cannot mount a size-limited folder that
//! outlives a move, as the course format's side files must).

use super::live;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// How much a game's folder may hold, its side files and the entry's own files together.
pub const FOLDER_QUOTA: u64 = 256 << 20;
/// How often the folder is measured.
pub const WATCH: Duration = Duration::from_millis(50);
/// The most entries a folder may have: each costs the file system memory, even when empty.
const MAX_ENTRIES: usize = 20_000;

/// Watches one process's folder: set once the process has exited, and read for why it was killed.
#[derive(Clone, Default)]
pub struct Watch {
    ended: Arc<AtomicBool>,
    exceeded: Arc<AtomicBool>,
}

impl Watch {
    /// Starts watching `dir` for the process group `pgid`.
    pub fn start(dir: &Path, pgid: i32) -> Watch {
        let watch = Watch::default();
        let seen = watch.clone();
        let dir = dir.to_path_buf();
        // Without a thread the folder is measured after each move only.
        let _ = thread::Builder::new()
            .name("folder quota".to_string())
            .spawn(move || seen.run(&dir, pgid));
        watch
    }

    fn run(&self, dir: &Path, pgid: i32) {
        while !self.ended.load(Ordering::SeqCst) {
            thread::sleep(WATCH);
            if over_quota(dir) && !self.ended.load(Ordering::SeqCst) {
                self.exceeded.store(true, Ordering::SeqCst);
                live::kill_group(pgid);
                return;
            }
        }
    }

    /// The process has exited: the watch ends.
    pub fn end(&self) {
        self.ended.store(true, Ordering::SeqCst);
    }

    /// Whether the process was killed for its folder.
    pub fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::SeqCst)
    }
}

/// Whether `dir` holds more than [`FOLDER_QUOTA`] bytes or [`MAX_ENTRIES`] entries. Blocks are
/// counted, not lengths, so a sparse file counts for what it takes; links are not followed.
pub fn over_quota(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let mut bytes: u64 = 0;
    let mut entries = 0;
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(list) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in list.flatten() {
            entries += 1;
            if entries > MAX_ENTRIES {
                return true;
            }
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            bytes = bytes.saturating_add(meta.blocks().saturating_mul(512));
            if bytes > FOLDER_QUOTA {
                return true;
            }
            if meta.is_dir() {
                folders.push(entry.path());
            }
        }
    }
    false
}

/// What a killed process's exit is said as, when the watch killed it.
pub fn describe() -> String {
    format!(
        "killed: its game's folder grew past {} MiB, the most it may hold",
        FOLDER_QUOTA >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_over_its_quota_by_its_blocks_or_its_entries() {
        let dir = std::env::temp_dir().join(format!("gridarena-quota-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/small.txt"), vec![7u8; 4096]).unwrap();
        assert!(!over_quota(&dir));
        // A sparse file of 1 GiB takes nothing.
        let sparse = std::fs::File::create(dir.join("sparse")).unwrap();
        sparse.set_len(1 << 30).unwrap();
        assert!(!over_quota(&dir));
        for i in 0..=MAX_ENTRIES {
            std::fs::write(dir.join(format!("sub/{i}")), b"").unwrap();
        }
        assert!(over_quota(&dir));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
