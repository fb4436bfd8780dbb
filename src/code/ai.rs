//! A student's AI as the page keeps it: its language, its format, its files and its saved versions, and
//! the label (`code:NAME`, `code:NAME@v3`) that names it as a player.
//!
//! Plain data, tested natively; [`super::store`] keeps it in the browser.

pub use gridarena_engine::halma::code::{CodeFile, Format, Lang, Source};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The longest name an AI may have, in characters.
pub const MAX_NAME_CHARS: usize = 40;

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

    /// What a menu of players shows for it: `Your AI: Ada v2`.
    pub fn describe(&self) -> String {
        match self.version {
            Some(n) => format!("Your AI: {} v{n}", self.name),
            None => format!("Your AI: {}", self.name),
        }
    }
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
