//! Files that survive a power cut: a tournament's bundle (what a resumed tournament starts from) and
//! its game records.
//!
//! A rename through a temporary file keeps a reader (or a killed process) from ever seeing half a
//! file, but not a power cut: until the file's data and the folder's new entry are on disk, the
//! kernel may lose both, and after the restart the path holds the old file, an empty one, or nothing
//! (ext4 and XFS can leave a renamed, zero-length file). So the temporary file is synced before the
//! rename (its data is on disk under some name), and the folder after it (the name points at it).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file beside it and a rename, syncing the file before
/// the rename and its folder after: once this returns, the new file survives a power cut, and at no
/// moment does `path` hold half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, bytes, &mut |file: &File| file.sync_all())
}

/// [`write_atomically`], with `sync` called on what must reach the disk: the temporary file, written
/// and not yet renamed; then the folder, opened after the rename. (Tests pass a `sync` that records.)
pub fn write_atomically_with(
    path: &Path,
    bytes: &[u8],
    sync: &mut dyn FnMut(&File) -> io::Result<()>,
) -> io::Result<()> {
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(".tmp");
    let tmp = Path::new(&tmp_name);
    let written = (|| {
        let mut file = File::create(tmp)?;
        file.write_all(bytes)?;
        sync(&file)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(tmp);
        return Err(e);
    }
    fs::rename(tmp, path)?;
    sync_folder(path, sync)
}

/// Syncs the folder holding `path`, so that its entry (a rename, a new file) is on disk. Where a folder
/// cannot be opened as a file (Windows), there is nothing to sync: its file system journals names.
fn sync_folder(path: &Path, sync: &mut dyn FnMut(&File) -> io::Result<()>) -> io::Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if cfg!(unix) {
        sync(&File::open(folder)?)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a sync saw: a folder, or a file with these contents.
    #[derive(Debug, PartialEq, Eq)]
    enum Synced {
        Folder,
        File(Vec<u8>),
    }

    #[test]
    fn the_file_is_synced_before_the_rename_and_its_folder_after() {
        let dir = std::env::temp_dir().join(format!("gridarena-durable-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bundle.json");
        fs::write(&path, "old").unwrap();
        let mut seen = Vec::new();
        let mut at_sync = Vec::new();
        let mut record = |f: &File| {
            let meta = f.metadata()?;
            seen.push(if meta.is_dir() {
                Synced::Folder
            } else {
                // The file synced is the temporary one, whole (it is open for writing only).
                assert_eq!(meta.len(), 3);
                Synced::File(fs::read(dir.join("bundle.json.tmp"))?)
            });
            // What the path holds when each sync happens.
            at_sync.push(fs::read(&path)?);
            f.sync_all()
        };
        write_atomically_with(&path, b"new", &mut record).unwrap();
        assert_eq!(seen, [Synced::File(b"new".to_vec()), Synced::Folder]);
        assert_eq!(
            at_sync,
            [b"old".to_vec(), b"new".to_vec()],
            "the file is synced before the rename, the folder after"
        );
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert!(!dir.join("bundle.json.tmp").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_sync_leaves_the_old_file_and_no_temporary_one() {
        let dir = std::env::temp_dir().join(format!("gridarena-durable-f-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bundle.json");
        fs::write(&path, "old").unwrap();
        let mut failing = |_: &File| Err(io::Error::other("disk gone"));
        assert!(write_atomically_with(&path, b"new", &mut failing).is_err());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert!(!dir.join("bundle.json.tmp").exists());
        write_atomically(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        fs::remove_dir_all(&dir).unwrap();
    }
}
