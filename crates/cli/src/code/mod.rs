//! Code entries on the command line: a student's Python or JavaScript, carried in the roster, played
//! with this machine's `python3` and `node` (docs/code-players.md, "Code entries on the command line").
//!
//! - The course format is the course's homework script, run as a program player is
//!   ([`ProgramPlayer::of_code`]): each game's folder is made from the entry's files, and the script runs
//!   there once per move as `python3 MAIN` would, with the course's clock, in a fork of the game's warm
//!   interpreter ([`warm_command`], warm.py) rather than an interpreter started for each move.
//! - The function format is run by a small runner shipped in this binary ([`function`]): one process
//!   per side per game, so the module's state lasts one game, as on the page.
//! - Every code process runs in the [`sandbox`]. Code entries are not "programs": they need no
//!   `--allow-programs`, since none of them runs as the teacher, with the teacher's network and files.
//! - The interpreters are found once ([`interpreter`]); a roster that needs one this machine lacks is
//!   refused before any game ([`announce`]).

pub mod function;
pub mod sandbox;

use crate::io::{self, read_capped, CapError};
use crate::program::{Clock, ProgramPlayer};
use function::FunctionPlayer;
use gridarena_engine::halma::code::source::{file_of, source_of, MAX_BYTES, MAX_FILES};
use gridarena_engine::halma::code::{CodeFile, Format, HashedSource, Lang, Source};
use gridarena_engine::halma::{AiPlayer, Program, ProgramFormat};
use sandbox::{Isolation, Sandbox};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};

/// The oldest Python the runner works with: audit hooks, which tell a network attempt, came in 3.8.
const PYTHON_MIN: (u32, u32) = (3, 8);
/// The oldest Node the runner works with: `module.register`, which makes a player's `.js` a module.
const NODE_MIN: (u32, u32) = (20, 6);

/// An interpreter found on this machine, and the sandbox its code runs in.
#[derive(Debug)]
pub struct Interpreter {
    pub lang: Lang,
    /// The interpreter's own binary (not a shim or a link: the sandbox lets code read only where it is
    /// installed).
    pub exe: PathBuf,
    pub version: String,
    pub sandbox: Arc<Sandbox>,
}

impl Interpreter {
    /// The command's name, as a teacher installs it.
    pub fn command(lang: Lang) -> &'static str {
        match lang {
            Lang::Python => "python3",
            Lang::JavaScript => "node",
        }
    }
}

impl fmt::Display for Interpreter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} ({})",
            Interpreter::command(self.lang),
            self.version,
            self.exe.display()
        )
    }
}

/// The interpreter for `lang`, found the first time it is asked for.
pub fn interpreter(lang: Lang) -> Result<&'static Interpreter, String> {
    static PYTHON: OnceLock<Result<Interpreter, String>> = OnceLock::new();
    static NODE: OnceLock<Result<Interpreter, String>> = OnceLock::new();
    let cell = match lang {
        Lang::Python => &PYTHON,
        Lang::JavaScript => &NODE,
    };
    cell.get_or_init(|| find(lang))
        .as_ref()
        .map_err(Clone::clone)
}

/// What the Python probe prints: where it is installed and where its modules are.
const PYTHON_PROBE: &str = "import sys, json, site\n\
print(json.dumps({'exe': sys.executable, 'version': '%d.%d.%d' % sys.version_info[:3], \
'paths': [p for p in sys.path if p], \
'prefixes': [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix], \
'userbase': site.getuserbase()}))";

const NODE_PROBE: &str =
    "JSON.stringify({exe: process.execPath, version: process.versions.node, paths: []})";

#[derive(serde::Deserialize)]
struct Probed {
    exe: PathBuf,
    version: String,
    #[serde(default)]
    paths: Vec<PathBuf>,
    #[serde(default)]
    prefixes: Vec<PathBuf>,
    #[serde(default)]
    userbase: Option<PathBuf>,
}

fn find(lang: Lang) -> Result<Interpreter, String> {
    let name = Interpreter::command(lang);
    let (flag, probe, min) = match lang {
        Lang::Python => ("-c", PYTHON_PROBE, PYTHON_MIN),
        Lang::JavaScript => ("-p", NODE_PROBE, NODE_MIN),
    };
    // From `/` with a clean environment: `python3 -c` imports from the folder it runs in first (a
    // `json.py` in the teacher's current folder would run as the teacher), and neither PYTHON* nor
    // NODE_OPTIONS settings may change what is found.
    let mut command = Command::new(name);
    command
        .args([flag, probe])
        .current_dir("/")
        .env_clear()
        .stdin(Stdio::null());
    for key in ["PATH", "HOME", "LANG", "LC_ALL"] {
        if let Some(value) = std::env::var_os(key) {
            command.env(key, value);
        }
    }
    if lang == Lang::Python {
        // Python 3.11 and later: nothing from the current folder at all.
        command.env("PYTHONSAFEPATH", "1");
    }
    let output = command
        .output()
        .map_err(|e| format!("{name} was not found on PATH ({e})"))?;
    if !output.status.success() {
        return Err(format!(
            "{name} did not run ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let probed: Probed = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("{name} did not say where it is installed: {e}"))?;
    let version = parse_version(&probed.version);
    if version < min {
        return Err(format!(
            "{name} is version {}, and code entries need {}.{} or later",
            probed.version, min.0, min.1
        ));
    }
    let exe = std::fs::canonicalize(&probed.exe).unwrap_or(probed.exe.clone());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let roots = read_roots(&exe, &probed, home.as_deref());
    let mut env = Vec::new();
    if lang == Lang::Python {
        env.push(("PYTHONDONTWRITEBYTECODE".to_string(), "1".to_string()));
        env.push(("PYTHONIOENCODING".to_string(), "utf-8".to_string()));
        if let Some(base) = &probed.userbase {
            // HOME is the game's folder, so the user's site-packages (numpy installed with --user) are
            // found through this instead.
            env.push((
                "PYTHONUSERBASE".to_string(),
                base.to_string_lossy().into_owned(),
            ));
        }
    }
    Ok(Interpreter {
        lang,
        exe,
        version: probed.version,
        sandbox: Arc::new(Sandbox::new(
            roots,
            env,
            match lang {
                Lang::Python => sandbox::MEMORY_LIMIT,
                Lang::JavaScript => sandbox::NODE_ADDRESS_LIMIT,
            },
        )),
    })
}

/// The folders an interpreter's code may read: its installation, its prefixes and its module folders,
/// the user's own site-packages among them, but not the rest of the user base (`~/.local` holds
/// histories and Jupyter's runtime keys). A folder that is the whole disk, the teacher's home or
/// above it would let code read everything, and is left out.
fn read_roots(exe: &Path, probed: &Probed, home: Option<&Path>) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = Vec::new();
    if let Some(install) = exe.parent().and_then(Path::parent) {
        roots.push(install.to_path_buf());
    }
    roots.extend(probed.prefixes.iter().cloned());
    roots.extend(probed.paths.iter().cloned());
    roots.retain(|r| {
        r.is_absolute() && r != Path::new("/") && !home.is_some_and(|h| h.starts_with(r))
    });
    roots.sort();
    roots.dedup();
    roots
}

/// `3.11.7` → (3, 11); what does not parse is (0, 0), too old.
fn parse_version(text: &str) -> (u32, u32) {
    let mut parts = text.trim_start_matches('v').split('.');
    let mut next = || parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    (next(), next())
}

/// The warm interpreter a Python course entry's moves are forks of ([`crate::program`]'s course
/// format): `python3 -c WARM MAIN`, with stdout not joined to stderr, as it is its channel.
pub fn warm_command(interpreter: &Interpreter, main: &str) -> String {
    format!(
        "{} -c {} {}",
        quote(&interpreter.exe.to_string_lossy()),
        quote(WARM_PY),
        quote(main)
    )
}

/// The warm interpreter's program (code/warm.py).
const WARM_PY: &str = include_str!("warm.py");

/// Text for `sh -c`, quoted so the shell takes it as one word whatever it holds.
pub(crate) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The code among `players` (each with the name [`announce`] says it by): what a match or a comparison
/// must announce before its first game.
pub fn code_players(players: &[(&str, &AiPlayer)]) -> Vec<(String, Arc<HashedSource>)> {
    players
        .iter()
        .filter_map(|(name, player)| match player {
            AiPlayer::Code(source) => Some((name.to_string(), Arc::clone(source))),
            _ => None,
        })
        .collect()
}

/// The code entries of `roster`, each by its name as a terminal may print it: what a tournament, or a
/// queue's worker taking one up, must announce before its first game.
pub fn roster_code(
    roster: &gridarena_engine::tournament::roster::Roster,
) -> Vec<(String, Arc<HashedSource>)> {
    roster
        .entries
        .iter()
        .filter_map(|e| {
            Some((
                crate::terminal::printable(&e.name).into_owned(),
                Arc::clone(e.code.as_ref()?),
            ))
        })
        .collect()
}

/// Checks, before any game, that this machine has the interpreters `entries` (name, code) need, and
/// says once what will run them and what the sandbox cannot do here. The error names every entry an
/// interpreter is missing for, or says why this machine cannot confine code (refused unless
/// `unconfined`: the teacher trusts every entry's code).
pub fn announce(entries: &[(String, Arc<HashedSource>)], unconfined: bool) -> Result<(), String> {
    if entries.is_empty() {
        return Ok(());
    }
    let mut said = Vec::new();
    let mut missing = Vec::new();
    for lang in [Lang::Python, Lang::JavaScript] {
        let names: Vec<&str> = entries
            .iter()
            .filter(|(_, s)| s.lang == lang)
            .map(|(n, _)| n.as_str())
            .collect();
        if names.is_empty() {
            continue;
        }
        match interpreter(lang) {
            Ok(found) => said.push(format!("{} {} with {found}", names.len(), lang_name(lang))),
            Err(why) => missing.push(format!(
                "{} code entr{} ({}) need{} {}: {why}",
                names.len(),
                if names.len() == 1 { "y" } else { "ies" },
                names.join(", "),
                if names.len() == 1 { "s" } else { "" },
                Interpreter::command(lang)
            )),
        }
    }
    if !missing.is_empty() {
        return Err(format!(
            "{}\nNothing was played: install what is missing, or leave those entries out.",
            missing.join("\n")
        ));
    }
    let warnings = Isolation::get().check(unconfined)?;
    eprintln!(
        "code entries: {}, each sandboxed (no network, writes only in its game's folder)",
        said.join(", ")
    );
    for line in warnings {
        eprintln!("{line}");
    }
    Ok(())
}

fn lang_name(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "Python",
        Lang::JavaScript => "JavaScript",
    }
}

/// A code entry ready to play: the course format as a program, the function format by the runner.
#[derive(Debug)]
pub enum CodePlayer {
    Course(ProgramPlayer),
    Function(FunctionPlayer),
}

impl CodePlayer {
    /// The player for `source`; fails when its interpreter is missing, or its format cannot be run.
    pub fn new(source: Arc<HashedSource>, clock: Clock) -> Result<CodePlayer, String> {
        let interpreter = interpreter(source.lang)?;
        match (source.format, source.lang) {
            (Format::Course, Lang::Python) => {
                let command = format!(
                    "{} {}",
                    quote(&interpreter.exe.to_string_lossy()),
                    quote(&source.main)
                );
                let program = Program::new(ProgramFormat::Course, "code", &command)?;
                Ok(CodePlayer::Course(
                    ProgramPlayer::of_code(
                        program,
                        clock,
                        Arc::clone(&source),
                        Arc::clone(&interpreter.sandbox),
                    )
                    .warm(warm_command(interpreter, &source.main)),
                ))
            }
            (Format::Course, Lang::JavaScript) => {
                Err("the course format is Python's: a JavaScript entry is a function".to_string())
            }
            (Format::Function, _) => Ok(CodePlayer::Function(FunctionPlayer::new(
                source,
                interpreter,
            ))),
        }
    }

    /// What records and traces call it: `code:LANGUAGE:FORMAT:HASH`.
    pub fn label(&self) -> String {
        let source = match self {
            CodePlayer::Course(p) => p.code_source(),
            CodePlayer::Function(p) => Some(p.source()),
        };
        source.map_or_else(String::new, |s| AiPlayer::Code(Arc::clone(s)).to_string())
    }

    /// Ends the game: its processes and folder go; the next move starts a new game.
    pub fn end_game(&self) {
        match self {
            CodePlayer::Course(p) => p.end_game(),
            CodePlayer::Function(p) => p.end_game(),
        }
    }
}

/// Reads a code entry from a file or a folder, as the page imports one: the main file is `main.py` or
/// `main.js`, else the only Python or JavaScript file at the top, else the one that defines `move`.
/// Links are not followed, and dot-folders, `__pycache__` and `node_modules` are left out.
pub fn read_path(path: &Path) -> Result<Source, String> {
    let named = |why: String| format!("{}: {why}", path.display());
    let meta = std::fs::symlink_metadata(path).map_err(|e| named(e.to_string()))?;
    let mut files = Vec::new();
    if meta.is_file() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bytes = read_file(path, MAX_BYTES).map_err(named)?;
        files.push(file_of(&name, &bytes));
    } else if meta.is_dir() {
        let mut budget = MAX_BYTES;
        collect(path, "", &mut files, &mut budget).map_err(named)?;
    } else {
        return Err(named("not a file or a folder".to_string()));
    }
    source_of(files).map_err(named)
}

/// Reads `path`, a regular file, refusing one over `cap` bytes (what is left of [`MAX_BYTES`]).
fn read_file(path: &Path, cap: usize) -> Result<Vec<u8>, String> {
    let name = path.display().to_string();
    // The engine's `Source` is a code entry; this one is where bytes come from.
    read_capped(io::Source::RegularFile(path), &name, cap).map_err(|e| match e {
        CapError::TooLarge { .. } => format!(
            "more than {} MB: an AI may hold at most that much",
            MAX_BYTES / 1_000_000
        ),
        unreadable @ CapError::Unreadable { .. } => unreadable.why(),
    })
}

fn collect(
    dir: &Path,
    prefix: &str,
    files: &mut Vec<CodeFile>,
    budget: &mut usize,
) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let rel = format!("{prefix}{name}");
        if kind.is_dir() {
            if name.starts_with('.') || name == "__pycache__" || name == "node_modules" {
                continue;
            }
            collect(&entry.path(), &format!("{rel}/"), files, budget)?;
        } else if kind.is_file() {
            if files.len() >= MAX_FILES {
                return Err(format!(
                    "more than {MAX_FILES} files: an AI may hold at most that many"
                ));
            }
            let bytes = read_file(&entry.path(), *budget).map_err(|e| format!("{rel}: {e}"))?;
            *budget -= bytes.len();
            files.push(file_of(&rel, &bytes));
        }
    }
    Ok(())
}

/// The player a `code:PATH` argument names (the match command's way to name a code entry).
pub fn player_of_path(path: &str) -> Result<AiPlayer, String> {
    if path.is_empty() {
        return Err("code: names no file: write code:PATH, a file or a folder".to_string());
    }
    read_path(Path::new(path)).map(|s| AiPlayer::Code(Arc::new(HashedSource::new(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_and_compare() {
        assert_eq!(parse_version("3.11.7"), (3, 11));
        assert_eq!(parse_version("v20.20.2"), (20, 20));
        assert_eq!(parse_version("junk"), (0, 0));
        assert!(parse_version("3.7.9") < PYTHON_MIN);
        assert!(parse_version("20.5.0") < NODE_MIN);
    }

    #[test]
    fn code_reads_its_site_packages_but_not_the_rest_of_the_home() {
        let probed = Probed {
            exe: PathBuf::from("/home/t/.pyenv/versions/3.12.1/bin/python3.12"),
            version: "3.12.1".to_string(),
            paths: vec![
                PathBuf::from("/home/t/.pyenv/versions/3.12.1/lib/python3.12"),
                PathBuf::from("/home/t/.local/lib/python3.12/site-packages"),
                PathBuf::from("/home/t"),
                PathBuf::from("/home"),
                PathBuf::from("relative"),
            ],
            prefixes: vec![PathBuf::from("/home/t/.pyenv/versions/3.12.1"), "/".into()],
            userbase: Some(PathBuf::from("/home/t/.local")),
        };
        let roots = read_roots(&probed.exe, &probed, Some(Path::new("/home/t")));
        assert_eq!(
            roots,
            [
                "/home/t/.local/lib/python3.12/site-packages",
                "/home/t/.pyenv/versions/3.12.1",
                "/home/t/.pyenv/versions/3.12.1/lib/python3.12",
            ]
            .map(PathBuf::from)
        );
    }

    #[test]
    fn quoted_text_is_one_word_for_the_shell() {
        let text = "it's a \"test\" $(x) `y`";
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("printf %s {}", quote(text)))
            .output()
            .expect("sh");
        assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    }
}
