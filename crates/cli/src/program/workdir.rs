//! A program's working folder for one game: a fresh copy of the agent's folder, removed after the game.
//!
//! Side files an agent keeps between moves (`playdata.txt` and the like) persist through a game and are
//! gone at the next, as in the course. The copy is bounded, so pointing a player at a home folder by
//! mistake is an error that says so, not a disk filled with copies.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most files copied from an agent's folder.
pub const MAX_FILES: usize = 2000;
/// The most bytes copied from an agent's folder.
pub const MAX_BYTES: u64 = 200 * 1024 * 1024;

/// A game's folder; removed with everything in it when dropped.
#[derive(Debug)]
pub struct GameDir {
    path: PathBuf,
}

impl GameDir {
    /// A new folder holding a copy of `source`, under the system's temporary folder.
    pub fn copy_of(source: &Path, label: &str) -> Result<GameDir, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        if !source.is_dir() {
            return Err(format!(
                "its folder {} does not exist or is not a folder",
                source.display()
            ));
        }
        let parent = std::env::temp_dir().join("gridarena-games");
        fs::create_dir_all(&parent)
            .map_err(|e| format!("no folder for its game in {}: {e}", parent.display()))?;
        let name = format!(
            "{}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            label
        );
        let dir = GameDir {
            path: parent.join(name),
        };
        fs::create_dir(&dir.path)
            .map_err(|e| format!("could not create {}: {e}", dir.path.display()))?;
        let mut budget = Budget {
            files: 0,
            bytes: 0,
            source,
        };
        copy_tree(source, &dir.path, &mut budget)?;
        Ok(dir)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for GameDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

struct Budget<'a> {
    files: usize,
    bytes: u64,
    source: &'a Path,
}

impl Budget<'_> {
    fn take(&mut self, bytes: u64) -> Result<(), String> {
        self.files += 1;
        self.bytes += bytes;
        if self.files > MAX_FILES || self.bytes > MAX_BYTES {
            return Err(format!(
                "its folder {} holds more than {MAX_FILES} files or {} MB, too much to copy for every game: \
                 give the folder that holds only the agent",
                self.source.display(),
                MAX_BYTES / 1024 / 1024
            ));
        }
        Ok(())
    }
}

/// Copies `from` into the existing folder `to`: files and folders, links as links.
fn copy_tree(from: &Path, to: &Path, budget: &mut Budget<'_>) -> Result<(), String> {
    let failed = |what: &Path, e: io::Error| format!("could not copy {}: {e}", what.display());
    let entries = fs::read_dir(from).map_err(|e| failed(from, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| failed(from, e))?;
        let source = entry.path();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| failed(&source, e))?;
        if kind.is_dir() {
            budget.take(0)?;
            fs::create_dir(&target).map_err(|e| failed(&source, e))?;
            copy_tree(&source, &target, budget)?;
        } else if kind.is_symlink() {
            budget.take(0)?;
            let points_to = fs::read_link(&source).map_err(|e| failed(&source, e))?;
            std::os::unix::fs::symlink(points_to, &target).map_err(|e| failed(&source, e))?;
        } else if kind.is_file() {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            budget.take(size)?;
            fs::copy(&source, &target).map_err(|e| failed(&source, e))?;
        }
        // Sockets, pipes and devices are not an agent's files: they are left out.
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_holds_the_folder_and_goes_with_the_game() {
        let source = std::env::temp_dir().join(format!("gridarena-src-{}", std::process::id()));
        fs::create_dir_all(source.join("sub")).unwrap();
        fs::write(source.join("agent.py"), "print(1)").unwrap();
        fs::write(source.join("sub/weights.txt"), "0.5").unwrap();
        let path = {
            let dir = GameDir::copy_of(&source, "red").expect("a copy");
            assert_eq!(
                fs::read_to_string(dir.path().join("agent.py")).unwrap(),
                "print(1)"
            );
            assert_eq!(
                fs::read_to_string(dir.path().join("sub/weights.txt")).unwrap(),
                "0.5"
            );
            fs::write(dir.path().join("playdata.txt"), "x").unwrap();
            dir.path().to_path_buf()
        };
        assert!(!path.exists(), "removed with the game");
        assert!(
            !source.join("playdata.txt").exists(),
            "the agent's own folder is untouched"
        );
        fs::remove_dir_all(&source).unwrap();
        let e = GameDir::copy_of(&source, "red").unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
    }
}
