//! A program's working folder for one game: a fresh copy of the agent's folder, removed after the game.
//!
//! Side files an agent keeps between moves (`playdata.txt` and the like) persist through a game and are
//! gone at the next, as in the course. The copy is bounded, so pointing a player at a home folder by
//! mistake is an error that says so, not a disk filled with copies.
//!
//! On a machine shared with other users the folder must be ours alone: another user who could enter it
//! could read a student's sources, and one who could rename or replace it between two moves could make
//! the next move run their code as us. So each game's folder is made directly in the temporary folder
//! (whose sticky bit keeps others from renaming what we own), under an unguessable name, by one `mkdir`
//! that fails rather than reuse what is there, with mode 0700 and every file copied at most 0600 (0700
//! when it could be run); nothing is made under a fixed shared parent another user could create first.

use crate::io::open_regular;
use gridarena_engine::halma::code::source::{bytes_of, check_path};
use gridarena_engine::halma::code::Source;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The most files copied from an agent's folder.
pub const MAX_FILES: usize = 2000;
/// The most bytes copied from an agent's folder.
pub const MAX_BYTES: u64 = 200 * 1024 * 1024;
/// How every game folder's name starts: `gridarena-game-PID-RANDOM-LABEL`, the pid being its owner's.
pub const PREFIX: &str = "gridarena-game-";
/// How many fresh names are tried before giving up: a clash of random names means someone is guessing.
const ATTEMPTS: usize = 16;

/// A game's folder; removed with everything in it when dropped.
#[derive(Debug)]
pub struct GameDir {
    path: PathBuf,
}

impl GameDir {
    /// A new private folder holding a copy of `source`, in the system's temporary folder.
    pub fn copy_of(source: &Path, label: &str) -> Result<GameDir, String> {
        GameDir::copy_into(&std::env::temp_dir(), source, label)
    }

    fn copy_into(parent: &Path, source: &Path, label: &str) -> Result<GameDir, String> {
        if !source.is_dir() {
            return Err(format!(
                "its folder {} does not exist or is not a folder",
                source.display()
            ));
        }
        let dir = GameDir::create(parent, || random_name(label))?;
        let mut budget = Budget {
            files: 0,
            bytes: 0,
            source,
        };
        copy_tree(source, &dir.path, &mut budget)?;
        Ok(dir)
    }

    /// A new private folder holding a code entry's files, in the system's temporary folder. Every path
    /// is checked again ([`check_path`]: relative, no `..`), each folder made fresh and each file
    /// created new without following a link, so nothing in `source` can write outside the folder.
    pub fn written(source: &Source, label: &str) -> Result<GameDir, String> {
        let dir = GameDir::create(&std::env::temp_dir(), || random_name(label))?;
        for file in &source.files {
            let path = check_path(&file.path)?;
            let failed = |e: io::Error| format!("could not write {path}: {e}");
            let mut at = dir.path.clone();
            let parts: Vec<&str> = path.split('/').collect();
            for folder in &parts[..parts.len() - 1] {
                at.push(folder);
                match DirBuilder::new().mode(0o700).create(&at) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                        let meta = fs::symlink_metadata(&at).map_err(failed)?;
                        if !meta.is_dir() {
                            return Err(failed(io::Error::other(
                                "a file is in the way of its folder",
                            )));
                        }
                    }
                    Err(e) => return Err(failed(e)),
                }
            }
            at.push(parts[parts.len() - 1]);
            let mut out = OpenOptions::new()
                .write(true)
                .create_new(true)
                .custom_flags(libc::O_NOFOLLOW)
                .mode(0o600)
                .open(&at)
                .map_err(failed)?;
            io::Write::write_all(&mut out, &bytes_of(file)).map_err(failed)?;
        }
        Ok(dir)
    }

    /// Makes a new folder in `parent` under the first of `names` that nobody has taken.
    fn create(
        parent: &Path,
        mut names: impl FnMut() -> io::Result<String>,
    ) -> Result<GameDir, String> {
        check_parent(parent)?;
        for _ in 0..ATTEMPTS {
            let name = names().map_err(|e| format!("no random name for its game's folder: {e}"))?;
            let path = parent.join(name);
            match DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => {
                    super::live::add_folder(&path);
                    let dir = GameDir { path };
                    check_private(&dir.path)?;
                    return Ok(dir);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(format!("could not create {}: {e}", path.display())),
            }
        }
        Err(format!(
            "no free name for its game's folder in {} after {ATTEMPTS} tries",
            parent.display()
        ))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for GameDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
        super::live::remove_folder(&self.path);
    }
}

/// Removes the game folders that a gridarena killed outright left in the temporary folder: folders,
/// not links, owned by us, named with our prefix, whose owner's pid is no live process.
pub fn remove_stale() {
    remove_stale_in(&std::env::temp_dir());
}

fn remove_stale_in(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<i32>().ok())
        else {
            continue;
        };
        let ours = fs::symlink_metadata(entry.path()).is_ok_and(|m| m.is_dir() && m.uid() == me);
        if ours && owner > 0 && !alive(owner) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a process `pid` exists (one we may not signal exists too).
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks; pid is positive, so it names one process.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// `gridarena-game-PID-RANDOM-LABEL`, with 128 random bits: nobody can guess it ahead.
fn random_name(label: &str) -> io::Result<String> {
    let mut bytes = [0u8; 16];
    File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    let random: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{PREFIX}{}-{random}-{label}", std::process::id()))
}

/// Refuses a temporary folder where others could rename or remove our game's folder: one they may write
/// in without the sticky bit (`/tmp` has it).
fn check_parent(parent: &Path) -> Result<(), String> {
    let meta = fs::metadata(parent)
        .map_err(|e| format!("the temporary folder {}: {e}", parent.display()))?;
    let mode = meta.permissions().mode();
    if !meta.is_dir() {
        return Err(format!(
            "the temporary folder {} is not a folder",
            parent.display()
        ));
    }
    if mode & 0o022 != 0 && mode & 0o1000 == 0 {
        return Err(format!(
            "the temporary folder {} is writable by others and not sticky, so they could replace a \
             game's folder: set TMPDIR to a folder of your own",
            parent.display()
        ));
    }
    Ok(())
}

/// Checks that the folder just made is ours and nobody else's, whatever the umask did.
fn check_private(path: &Path) -> Result<(), String> {
    let failed = |why: String| format!("its game's folder {}: {why}", path.display());
    fs::set_permissions(path, fs::Permissions::from_mode(0o700))
        .map_err(|e| failed(e.to_string()))?;
    let meta = fs::symlink_metadata(path).map_err(|e| failed(e.to_string()))?;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if !meta.is_dir() || meta.uid() != me || meta.mode() & 0o7777 != 0o700 {
        return Err(failed("it is not a private folder of ours".to_string()));
    }
    Ok(())
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
            DirBuilder::new()
                .mode(0o700)
                .create(&target)
                .map_err(|e| failed(&source, e))?;
            copy_tree(&source, &target, budget)?;
        } else if kind.is_symlink() {
            budget.take(0)?;
            let points_to = fs::read_link(&source).map_err(|e| failed(&source, e))?;
            std::os::unix::fs::symlink(points_to, &target).map_err(|e| failed(&source, e))?;
        } else if kind.is_file() {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            budget.take(size)?;
            copy_file(&source, &target).map_err(|e| failed(&source, e))?;
        }
        // Sockets, pipes and devices are not an agent's files: they are left out.
    }
    Ok(())
}

/// Copies a file's bytes into a new file only we may read: 0700 when it could be run, else 0600. Its
/// own mode is not copied, so a file anyone could read is not readable by anyone in the game's folder.
fn copy_file(from: &Path, to: &Path) -> io::Result<()> {
    let mut input = open_regular(from)?;
    let executable = input.metadata()?.permissions().mode() & 0o111 != 0;
    let mut output = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(if executable { 0o700 } else { 0o600 })
        .open(to)?;
    io::copy(&mut input, &mut output)?;
    Ok(())
}

/// Writes `text` to `path` as a new file only we may read, after removing whatever was there: a link
/// is not followed and a FIFO is not waited on.
pub(super) fn write_new(path: &Path, text: &str) -> io::Result<()> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    io::Write::write_all(&mut file, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder of this test's own, private like a user's temporary folder.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("gridarena-workdir-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        dir
    }

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().mode() & 0o7777
    }

    #[test]
    fn a_copy_holds_the_folder_and_goes_with_the_game() {
        let source = scratch("src");
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

    #[test]
    fn a_games_folder_and_its_files_are_ours_alone_under_a_fresh_name() {
        let parent = scratch("private");
        let source = scratch("private-src");
        fs::create_dir(source.join("sub")).unwrap();
        for (file, mode) in [("open.txt", 0o666), ("run", 0o755), ("sub/w.txt", 0o644)] {
            fs::write(source.join(file), "x").unwrap();
            fs::set_permissions(source.join(file), fs::Permissions::from_mode(mode)).unwrap();
        }
        let a = GameDir::copy_into(&parent, &source, "red-course").expect("a copy");
        let b = GameDir::copy_into(&parent, &source, "red-course").expect("another");
        assert_ne!(a.path(), b.path());
        let name = a.path().file_name().unwrap().to_string_lossy().into_owned();
        let mine = format!("{PREFIX}{}-", std::process::id());
        assert!(
            name.starts_with(&mine) && name.ends_with("-red-course"),
            "{name}"
        );
        assert_eq!(name.len(), mine.len() + 32 + "-red-course".len(), "{name}");
        assert_eq!(a.path().parent(), Some(parent.as_path()));
        let modes: Vec<u32> = ["", "open.txt", "run", "sub", "sub/w.txt"]
            .iter()
            .map(|f| mode(&a.path().join(f)))
            .collect();
        assert_eq!(modes, [0o700, 0o600, 0o700, 0o700, 0o600]);
        drop((a, b));
        let _ = fs::remove_dir_all(&parent);
        let _ = fs::remove_dir_all(&source);
    }

    #[test]
    fn a_name_someone_took_first_is_passed_over_and_left_alone() {
        let parent = scratch("taken");
        let elsewhere = scratch("taken-elsewhere");
        std::os::unix::fs::symlink(&elsewhere, parent.join("taken")).unwrap();
        let mut names = ["taken", "free"].into_iter().map(|n| Ok(n.to_string()));
        let dir = GameDir::create(&parent, || names.next().unwrap()).expect("a folder");
        assert_eq!(dir.path(), parent.join("free"));
        assert!(fs::symlink_metadata(parent.join("taken"))
            .unwrap()
            .is_symlink());
        drop(dir);
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        let e = GameDir::create(&parent, || Ok("taken".to_string())).unwrap_err();
        assert!(e.contains("no free name"), "{e}");
        let _ = fs::remove_dir_all(&parent);
        let _ = fs::remove_dir_all(&elsewhere);
    }

    #[test]
    fn only_our_folders_of_a_dead_owner_are_stale() {
        let parent = scratch("stale");
        // No process has pid i32::MAX (the kernel's maximum is lower).
        let dead = format!("{PREFIX}{}-00-red-course", i32::MAX);
        let living = format!("{PREFIX}{}-00-red-course", std::process::id());
        for name in [&dead, &living] {
            fs::create_dir(parent.join(name)).unwrap();
            fs::write(parent.join(name).join("agent.py"), "x").unwrap();
        }
        let target = scratch("stale-target");
        let link = format!("{PREFIX}{}-01-red-course", i32::MAX);
        std::os::unix::fs::symlink(&target, parent.join(&link)).unwrap();
        fs::write(parent.join("gridarena-games"), "not ours to judge").unwrap();
        remove_stale_in(&parent);
        assert!(!parent.join(&dead).exists());
        assert!(parent.join(&living).join("agent.py").exists());
        assert!(fs::symlink_metadata(parent.join(&link)).is_ok());
        assert!(parent.join("gridarena-games").exists());
        let _ = fs::remove_dir_all(&parent);
        let _ = fs::remove_dir_all(&target);
    }

    #[test]
    fn a_temporary_folder_anyone_may_rename_in_is_refused() {
        let parent = scratch("open");
        fs::set_permissions(&parent, fs::Permissions::from_mode(0o777)).unwrap();
        let e = GameDir::create(&parent, || Ok("g".to_string())).unwrap_err();
        assert!(e.contains("TMPDIR"), "{e}");
        // With the sticky bit, as /tmp has it, others cannot touch what is ours.
        fs::set_permissions(&parent, fs::Permissions::from_mode(0o1777)).unwrap();
        assert!(GameDir::create(&parent, || Ok("g".to_string())).is_ok());
        let _ = fs::remove_dir_all(&parent);
    }
}
