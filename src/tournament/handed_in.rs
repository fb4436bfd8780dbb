//! Homework as a teacher receives it, made into roster entries: files chosen or dropped on the roster
//! (one entry per file), a folder (one entry per sub-folder or .zip in it, or the folder itself when it
//! is one student's), or .zip files (one entry each). Each entry is named after its file, folder or
//! .zip, made distinct from the names already in the roster.
//!
//! Plain data, tested natively: the page reads the files and unzips the .zip files, then reads each
//! group with the engine's [`source_of`](gridarena_engine::halma::code::source::source_of).

use gridarena_engine::tournament::roster::MAX_NAME_CHARS;

/// The files of one entry to be: loose files, or a .zip still to unpack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Group {
    /// Files, with their paths inside the entry (`main.py`, `data/table.pkl`).
    Files {
        name: String,
        files: Vec<(String, Vec<u8>)>,
    },
    /// A .zip: one entry, its files inside.
    Zip { name: String, bytes: Vec<u8> },
}

impl Group {
    pub fn name(&self) -> &str {
        match self {
            Group::Files { name, .. } | Group::Zip { name, .. } => name,
        }
    }
}

/// A file as chosen: its path and its bytes.
type Chosen = (String, Vec<u8>);

fn is_zip(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".zip")
}

fn is_code(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".py", ".js", ".mjs"].iter().any(|e| lower.ends_with(e))
}

/// The last part of a path.
fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Sorts `chosen` (each file's path, with its folders when a folder was chosen or dropped, and its
/// bytes) into entries:
/// - files not in a folder: one entry per file (a .zip is one entry);
/// - a folder with sub-folders or .zip files in it (a class): one entry per sub-folder and per .zip,
///   and one per code file loose beside them;
/// - a folder of files only: one student's (one entry) when it holds a `main.py` or `main.js`, data
///   files, or a single code file; else one entry per code file (a class's single-file homework).
///
/// Hidden files (`.DS_Store`, `__pycache__` folders) are left out.
pub fn group(chosen: Vec<(String, Vec<u8>)>) -> Vec<Group> {
    let chosen: Vec<(String, Vec<u8>)> = chosen
        .into_iter()
        .map(|(p, b)| (p.trim_start_matches('/').to_string(), b))
        .filter(|(p, _)| {
            !p.split('/')
                .any(|part| part.starts_with('.') || part == "__pycache__")
        })
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    // Top-level folders, in the order first met.
    let mut folders: Vec<(String, Vec<Chosen>)> = Vec::new();
    for (path, bytes) in chosen {
        match path.split_once('/') {
            None if is_zip(&path) => groups.push(Group::Zip {
                name: path.clone(),
                bytes,
            }),
            None => groups.push(Group::Files {
                name: path.clone(),
                files: vec![(path, bytes)],
            }),
            Some((folder, rest)) => {
                let file = (rest.to_string(), bytes);
                match folders.iter_mut().find(|(f, _)| f == folder) {
                    Some((_, files)) => files.push(file),
                    None => folders.push((folder.to_string(), vec![file])),
                }
            }
        }
    }
    for (folder, files) in folders {
        groups.extend(folder_groups(folder, files));
    }
    groups
}

/// The entries of one chosen folder (paths inside it).
fn folder_groups(folder: String, files: Vec<(String, Vec<u8>)>) -> Vec<Group> {
    let nested = files.iter().any(|(p, _)| p.contains('/') || is_zip(p));
    if !nested {
        let code = files.iter().filter(|(p, _)| is_code(p)).count();
        let one_student = code <= 1
            || files.iter().any(|(p, _)| !is_code(p))
            || files.iter().any(|(p, _)| p == "main.py" || p == "main.js");
        if one_student {
            return vec![Group::Files {
                name: folder,
                files,
            }];
        }
        return files
            .into_iter()
            .map(|(path, bytes)| Group::Files {
                name: path.clone(),
                files: vec![(path, bytes)],
            })
            .collect();
    }
    // A class: each sub-folder and each .zip an entry, each loose code file one too.
    let mut groups: Vec<Group> = Vec::new();
    let mut subs: Vec<(String, Vec<Chosen>)> = Vec::new();
    for (path, bytes) in files {
        match path.split_once('/') {
            Some((sub, rest)) => {
                let file = (rest.to_string(), bytes);
                match subs.iter_mut().find(|(s, _)| s == sub) {
                    Some((_, files)) => files.push(file),
                    None => subs.push((sub.to_string(), vec![file])),
                }
            }
            None if is_zip(&path) => groups.push(Group::Zip { name: path, bytes }),
            None if is_code(&path) => groups.push(Group::Files {
                name: path.clone(),
                files: vec![(path, bytes)],
            }),
            // A note or a mark sheet beside the class's folders belongs to no entry.
            None => {}
        }
    }
    groups.extend(
        subs.into_iter()
            .map(|(name, files)| Group::Files { name, files }),
    );
    groups
}

/// An entry's name from a file, folder or .zip name: its last part without the extension of code or
/// a .zip, control characters dropped, at most [`MAX_NAME_CHARS`] characters, and made distinct from
/// `taken` (compared ignoring case, as the roster does) by a number: `Ada`, `Ada 2`, `Ada 3`.
pub fn entry_name(raw: &str, taken: &[String]) -> String {
    let last = base(raw.trim_end_matches('/'));
    let stem = match last.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty()
                && ["py", "js", "mjs", "zip"].contains(&ext.to_ascii_lowercase().as_str()) =>
        {
            stem
        }
        _ => last,
    };
    let clean: String = stem
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    let clean = clean.trim();
    let stem = if clean.is_empty() { "Entry" } else { clean };
    let free = |name: &str| {
        let folded = name.to_lowercase();
        !taken.iter().any(|t| t.to_lowercase() == folded)
    };
    if free(stem) {
        return stem.to_string();
    }
    (2..)
        .map(|n| {
            let suffix = format!(" {n}");
            let room = MAX_NAME_CHARS - suffix.len();
            let head: String = stem.chars().take(room).collect();
            format!("{}{suffix}", head.trim_end())
        })
        .find(|name| free(name))
        .unwrap_or_else(|| stem.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(path: &str) -> (String, Vec<u8>) {
        (path.to_string(), path.as_bytes().to_vec())
    }

    fn summary(groups: &[Group]) -> Vec<String> {
        groups
            .iter()
            .map(|g| match g {
                Group::Files { name, files } => format!(
                    "{name}: {}",
                    files
                        .iter()
                        .map(|(p, _)| p.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                Group::Zip { name, .. } => format!("{name} (zip)"),
            })
            .collect()
    }

    #[test]
    fn files_are_one_entry_each() {
        let groups = group(vec![f("ada.py"), f("bo.js"), f("cy.zip"), f(".DS_Store")]);
        assert_eq!(
            summary(&groups),
            ["ada.py: ada.py", "bo.js: bo.js", "cy.zip (zip)"]
        );
    }

    #[test]
    fn a_class_folder_gives_one_entry_per_sub_folder_zip_and_loose_code_file() {
        let groups = group(vec![
            f("class/ada/main.py"),
            f("class/ada/table.pkl"),
            f("class/bo.zip"),
            f("class/cy.py"),
            f("class/marks.csv"),
            f("class/ada/__pycache__/x.pyc"),
            f("class/di/homework.py"),
            f("class/di/lib/util.py"),
        ]);
        assert_eq!(
            summary(&groups),
            [
                "bo.zip (zip)",
                "cy.py: cy.py",
                "ada: main.py table.pkl",
                "di: homework.py lib/util.py"
            ]
        );
    }

    #[test]
    fn a_flat_folder_is_one_students_or_a_class_of_single_files() {
        let one = group(vec![f("ada/homework.py"), f("ada/distances.pkl")]);
        assert_eq!(summary(&one), ["ada: homework.py distances.pkl"]);
        let with_main = group(vec![f("bo/main.py"), f("bo/helpers.py")]);
        assert_eq!(summary(&with_main), ["bo: main.py helpers.py"]);
        let single = group(vec![f("cy/bot.js")]);
        assert_eq!(summary(&single), ["cy: bot.js"]);
        let class = group(vec![f("hw/ada.py"), f("hw/bo.py"), f("hw/cy.js")]);
        assert_eq!(
            summary(&class),
            ["ada.py: ada.py", "bo.py: bo.py", "cy.js: cy.js"]
        );
    }

    #[test]
    fn names_come_from_files_and_are_made_distinct() {
        let taken = vec!["Ada".to_string(), "bo 2".to_string()];
        assert_eq!(entry_name("homework/ada.py", &[]), "ada");
        assert_eq!(entry_name("ada.py", &taken), "ada 2");
        assert_eq!(entry_name("Bo.zip", &["bo".into()]), "Bo 2");
        assert_eq!(entry_name("bo.zip", &["Bo".into(), "BO 2".into()]), "bo 3");
        assert_eq!(entry_name("notes.txt", &[]), "notes.txt");
        assert_eq!(entry_name(".py", &[]), ".py");
        assert_eq!(entry_name("\u{7}\t.zip", &[]), "Entry");
        assert_eq!(entry_name("class/cy/", &[]), "cy");
        let long = "x".repeat(60);
        let name = entry_name(&format!("{long}.py"), &[]);
        assert_eq!(name.chars().count(), MAX_NAME_CHARS);
        let again = entry_name(&format!("{long}.py"), std::slice::from_ref(&name));
        assert!(again.ends_with(" 2") && again.chars().count() <= MAX_NAME_CHARS);
        assert_ne!(again, name);
        // Every name made is one the roster takes.
        for raw in ["a\u{0}b.py", "  spaced  .js", "ünïcode.py"] {
            let name = entry_name(raw, &[]);
            assert!(
                gridarena_engine::tournament::roster::check_name(&name).is_ok(),
                "{name:?}"
            );
        }
    }
}
