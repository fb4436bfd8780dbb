//! A student's AI as the page keeps it: its language, its format, its files and its saved versions, and
//! the label (`code:NAME`, `code:NAME@v3`) that names it as a player.
//!
//! Plain data, tested natively; [`super::store`] keeps it in the browser.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The longest name an AI may have, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// The language an AI is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Python,
    JavaScript,
}

impl Lang {
    /// The name the worker and the editor take.
    pub fn key(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
        }
    }
}

/// How an AI is asked for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `move(request)` returns the web protocol's answer; module state lasts a game.
    Function,
    /// The course's homework script (seed 003): `input.txt` in, `output.txt` out, run once per move.
    Course,
}

impl Format {
    pub fn key(self) -> &'static str {
        match self {
            Format::Function => "function",
            Format::Course => "course",
        }
    }
}

/// One file of an AI: text, or binary data kept as base64 (a pickled table, say).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeFile {
    /// Relative, `/`-separated: `main.py`, `lib/tables.py`.
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<String>,
}

impl CodeFile {
    pub fn text(path: &str, text: &str) -> CodeFile {
        CodeFile {
            path: path.to_string(),
            text: Some(text.to_string()),
            base64: None,
        }
    }

    /// Its size in bytes as the worker receives it (base64 counted as the bytes it stands for).
    pub fn size(&self) -> usize {
        self.text.as_ref().map_or(0, String::len)
            + self.base64.as_ref().map_or(0, |b| b.len() / 4 * 3)
    }
}

/// What a player runs: one version of an AI's files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub lang: Lang,
    pub format: Format,
    /// The file that is run (function format: the module that defines `move`).
    pub main: String,
    pub files: Vec<CodeFile>,
}

impl Source {
    /// The main file's text, if it is a text file.
    pub fn main_text(&self) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.path == self.main)
            .and_then(|f| f.text.as_deref())
    }

    /// A copy with the main file's text replaced (what the editor changes).
    pub fn with_main_text(&self, text: &str) -> Source {
        let mut source = self.clone();
        match source.files.iter_mut().find(|f| f.path == source.main) {
            Some(f) => *f = CodeFile::text(&source.main, text),
            None => source.files.insert(0, CodeFile::text(&source.main, text)),
        }
        source
    }
}

/// A saved version: `v3` is the third time its author pressed Save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    pub n: u32,
    /// When it was saved, in milliseconds since 1970 (the browser's clock).
    pub saved_ms: u64,
    pub source: Source,
}

/// An AI kept in the browser: the copy being edited, and its saved versions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeAi {
    pub name: String,
    /// What the editor holds now; kept on every change, so a reload loses nothing.
    pub draft: Source,
    pub versions: Vec<Version>,
}

impl CodeAi {
    pub fn new(name: &str, source: Source) -> Result<CodeAi, String> {
        Ok(CodeAi {
            name: check_name(name)?,
            draft: source,
            versions: Vec::new(),
        })
    }

    /// Keeps the draft as the next version and returns its number.
    pub fn save_version(&mut self, now_ms: u64) -> u32 {
        let n = self.versions.last().map_or(1, |v| v.n + 1);
        self.versions.push(Version {
            n,
            saved_ms: now_ms,
            source: self.draft.clone(),
        });
        n
    }

    /// Every player this AI gives: its draft, then its saved versions, newest first.
    pub fn players(&self) -> impl Iterator<Item = CodeRef> + '_ {
        let of = |version| CodeRef {
            name: self.name.clone(),
            version,
        };
        std::iter::once(of(None)).chain(self.versions.iter().rev().map(move |v| of(Some(v.n))))
    }

    /// What `version` names: a saved version, or the draft for `None`.
    pub fn source(&self, version: Option<u32>) -> Option<&Source> {
        match version {
            None => Some(&self.draft),
            Some(n) => self.versions.iter().find(|v| v.n == n).map(|v| &v.source),
        }
    }
}

/// A name an AI may have: 1 to [`MAX_NAME_CHARS`] characters, letters, digits, spaces and `-_.`, since
/// it travels in labels (`code:NAME@v3`) and links.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("give the AI a name".to_string());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "the name is longer than {MAX_NAME_CHARS} characters"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.')))
    {
        return Err(format!(
            "the name may hold letters, digits, spaces, '-', '_' and '.', not {c:?}"
        ));
    }
    Ok(name.to_string())
}

/// A player that is an AI kept in this browser: `code:NAME` plays its draft, `code:NAME@v3` version 3.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CodeRef {
    pub name: String,
    pub version: Option<u32>,
}

impl CodeRef {
    /// The prefix of the label.
    pub const PREFIX: &'static str = "code:";
}

impl fmt::Display for CodeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", CodeRef::PREFIX, self.name)?;
        match self.version {
            Some(n) => write!(f, "@v{n}"),
            None => Ok(()),
        }
    }
}

impl FromStr for CodeRef {
    type Err = String;
    /// Reads `code:NAME` or `code:NAME@vN`.
    fn from_str(s: &str) -> Result<CodeRef, String> {
        let rest = s
            .strip_prefix(CodeRef::PREFIX)
            .ok_or_else(|| format!("{s:?} does not start with {}", CodeRef::PREFIX))?;
        let (name, version) = match rest.rsplit_once('@') {
            Some((name, v)) => {
                let n = v
                    .strip_prefix('v')
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|&n| n > 0)
                    .ok_or_else(|| {
                        format!("{s:?}: a version is written @v1, @v2, ..., not @{v}")
                    })?;
                (name, Some(n))
            }
            None => (rest, None),
        };
        Ok(CodeRef {
            name: check_name(name).map_err(|why| format!("{s:?}: {why}"))?,
            version,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> Source {
        Source {
            lang: Lang::Python,
            format: Format::Function,
            main: "main.py".into(),
            files: vec![CodeFile::text("main.py", "def move(r):\n    return None\n")],
        }
    }

    #[test]
    fn labels_read_back() {
        for label in ["code:Ada", "code:Ada v2.1@v3", "code:my-ai_2"] {
            let r: CodeRef = label.parse().unwrap();
            assert_eq!(r.to_string(), label);
        }
        let r: CodeRef = "code:Ada@v12".parse().unwrap();
        assert_eq!((r.name.as_str(), r.version), ("Ada", Some(12)));
        for bad in [
            "Ada",
            "code:",
            "code:a:b",
            "code:Ada@3",
            "code:Ada@v0",
            "code:<b>",
            "code:@v1",
        ] {
            assert!(bad.parse::<CodeRef>().is_err(), "{bad}");
        }
        let long = format!("code:{}", "x".repeat(MAX_NAME_CHARS + 1));
        assert!(long.parse::<CodeRef>().is_err());
    }

    #[test]
    fn versions_count_up_and_keep_what_was_saved() {
        let mut ai = CodeAi::new(" Ada ", source()).unwrap();
        assert_eq!(ai.name, "Ada");
        assert_eq!(ai.save_version(1), 1);
        ai.draft = ai.draft.with_main_text("def move(r):\n    return 1\n");
        assert_eq!(ai.save_version(2), 2);
        ai.draft = ai.draft.with_main_text("changed");
        assert_eq!(
            ai.source(Some(1)).unwrap().main_text(),
            source().main_text()
        );
        assert_eq!(ai.source(None).unwrap().main_text(), Some("changed"));
        assert!(ai.source(Some(3)).is_none());
        // A removed version's number is not given again.
        ai.versions.remove(0);
        assert_eq!(ai.save_version(3), 3);
        let labels: Vec<String> = ai.players().map(|p| p.to_string()).collect();
        assert_eq!(labels, ["code:Ada", "code:Ada@v3", "code:Ada@v2"]);
    }

    #[test]
    fn the_main_file_is_replaced_or_added() {
        let s = source().with_main_text("x = 1");
        assert_eq!(s.files.len(), 1);
        assert_eq!(s.main_text(), Some("x = 1"));
        let mut other = source();
        other.main = "bot.py".into();
        let s = other.with_main_text("y = 2");
        assert_eq!(s.files.len(), 2);
        assert_eq!(s.main_text(), Some("y = 2"));
        assert_eq!(CodeFile::text("a", "abc").size(), 3);
    }
}
