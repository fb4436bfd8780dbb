//! The roster: who plays, as the JSON a teacher imports and exports and the lines a teacher pastes.
//!
//! ```json
//! {"entries": [{"name": "Ada", "player": "http://127.0.0.1:8001/"}, {"name": "House", "player": "builtin:greedy"}]}
//! ```
//!
//! A player is the label every other part of GridArena reads ([`AiPlayer`]): `builtin:NAME`, a web AI's
//! URL, or a program's `FORMAT:DIR:COMMAND`. A program may also be written as an object,
//! `{"name": "Ada", "program": {"command": "python3 homework.py", "dir": "agents/ada", "format": "course"}}`;
//! it is read into the same label, and exported as one. An entry may also be a student's code, carried
//! whole: `{"name": "Ada", "code": {"language": "python", "main": "main.py", "files": {...}}}` (see
//! [`super::code_entry`]). A web AI's entry may say how its requests are labelled, as the arena's setup
//! does: `{"name": "Bo", "player": "https://bo.example/ai", "contentType": "json"}` (`text`, the default,
//! or `json`); both hosts send what the entry says. A roster is read from files, links and pasted text, so every field is checked before anything
//! uses it: names are what the standings, the crosstable and the CSV show, so they must be present, short,
//! printable and distinct (ignoring case, so "Ada" and "ada" never share a table).

use super::code_entry::{CodeJson, CodeOut};
use super::MAX_ENTRIES;
use crate::halma::code::{HashedSource, Source};
use crate::halma::{AiPlayer, ContentType, PlayerError, Program, ProgramFormat};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// The longest name, in characters: a table column on a projector, not an essay.
pub const MAX_NAME_CHARS: usize = 40;

/// The most bytes of code a roster may carry in all (binary files counted as the bytes they stand for):
/// 40 entries of a course agent with its 1.25 MB table fit, with room to spare.
pub const MAX_CODE_BYTES: usize = 64_000_000;

/// The largest roster text read: [`MAX_CODE_BYTES`] of code written as base64 (4 characters for 3
/// bytes), with room for the rest.
pub const MAX_ROSTER_BYTES: usize = 96 * 1024 * 1024;

/// One entry as written: a name and a player label, or a name and code.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "EntryJson")]
pub struct Entry {
    pub name: String,
    /// The player's label; for a code entry, what [`AiPlayer::Code`] displays (for people to read).
    pub player: String,
    /// A code entry's files, with their hash; shared, since a class's code is tens of megabytes and
    /// entries are cloned.
    pub code: Option<Arc<HashedSource>>,
    /// How a web AI's requests are labelled (the default for every other entry).
    pub content_type: ContentType,
}

impl Entry {
    /// An entry whose player is a label (`builtin:greedy`, a URL, a program).
    pub fn new(name: &str, player: &str) -> Entry {
        Entry {
            name: name.to_string(),
            player: player.to_string(),
            code: None,
            content_type: ContentType::default(),
        }
    }

    /// An entry that is code (its hash is worked out here).
    pub fn code(name: &str, source: Source) -> Entry {
        Entry::hashed(name, Arc::new(HashedSource::new(source)))
    }

    /// An entry that is code whose hash is already worked out.
    pub fn hashed(name: &str, source: Arc<HashedSource>) -> Entry {
        Entry {
            name: name.to_string(),
            player: AiPlayer::Code(Arc::clone(&source)).to_string(),
            code: Some(source),
            content_type: ContentType::default(),
        }
    }
}

impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let labelled = self.content_type != ContentType::default();
        let mut map = s.serialize_map(Some(2 + usize::from(labelled)))?;
        map.serialize_entry("name", &self.name)?;
        match &self.code {
            Some(source) => map.serialize_entry("code", &CodeOut(source))?,
            None => map.serialize_entry("player", &self.player)?,
        }
        if labelled {
            map.serialize_entry("contentType", self.content_type.key())?;
        }
        map.end()
    }
}

/// An entry as a roster file may hold it: a player label, or a program as an object.
#[derive(Deserialize)]
struct EntryJson {
    name: String,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    program: Option<ProgramJson>,
    #[serde(default)]
    code: Option<CodeJson>,
    /// `text` or `json`: a web AI's only.
    #[serde(default, rename = "contentType")]
    content_type: Option<String>,
}

/// `{"command": "python3 homework.py", "dir": "agents/ada", "format": "course"}`; `dir` defaults to `.`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramJson {
    command: String,
    #[serde(default)]
    dir: Option<String>,
    format: ProgramFormat,
}

impl TryFrom<EntryJson> for Entry {
    type Error = String;
    fn try_from(json: EntryJson) -> Result<Entry, String> {
        let named = |why: String| format!("entry {:?}: {why}", json.name);
        let content_type = match json.content_type.as_deref() {
            None => None,
            Some(key) => Some(ContentType::from_key(key).ok_or_else(|| {
                named(format!(
                    "contentType {key:?} is not one: \"text\" (text/plain) or \"json\" (application/json)"
                ))
            })?),
        };
        let web = json
            .player
            .as_deref()
            .is_some_and(|p| matches!(p.parse::<AiPlayer>(), Ok(AiPlayer::Web(_))));
        if content_type.is_some() && !web {
            return Err(named(
                "contentType is for a web AI's entry (a player that is an http: or https: address)"
                    .to_string(),
            ));
        }
        let entry = match (json.player, json.program, json.code) {
            (Some(player), None, None) => Ok(Entry::new(&json.name, &player)),
            (None, Some(p), None) => {
                let program = Program::new(p.format, p.dir.as_deref().unwrap_or("."), &p.command)
                    .map_err(named)?;
                Ok(Entry::new(&json.name, &program.to_string()))
            }
            (None, None, Some(code)) => Ok(Entry::hashed(
                &json.name,
                Arc::new(code.source().map_err(named)?),
            )),
            (None, None, None) => Err(named(
                "it has none of \"player\", \"program\" and \"code\"".to_string(),
            )),
            _ => Err(named(
                "give one of \"player\", \"program\" and \"code\", not several".to_string(),
            )),
        }?;
        Ok(Entry {
            content_type: content_type.unwrap_or_default(),
            ..entry
        })
    }
}

/// Everyone in a tournament, in roster order (an entry's [`super::EntryId`] is its place here).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roster {
    pub entries: Vec<Entry>,
}

/// Why a roster, or one of its entries, was refused. Entries are numbered from 1, as a person counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RosterError {
    /// The text is over [`MAX_ROSTER_BYTES`].
    TooLarge { bytes: usize },
    /// The text is not a roster JSON object.
    NotRoster(String),
    /// More entries than [`super::MAX_ENTRIES`].
    TooMany { entries: usize },
    /// A name that is empty, too long or holds control characters.
    BadName { entry: usize, why: String },
    /// Two entries with the same name (ignoring case).
    DuplicateName {
        first: usize,
        second: usize,
        name: String,
    },
    /// A player label that names no AI.
    BadPlayer {
        entry: usize,
        name: String,
        error: PlayerError,
    },
    /// A pasted line that is not `name player`.
    BadLine { line: usize, text: String },
    /// A code entry whose files cannot run as they are.
    BadCode {
        entry: usize,
        name: String,
        why: String,
    },
    /// More code in all than [`MAX_CODE_BYTES`].
    TooMuchCode { bytes: usize },
}

impl fmt::Display for RosterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RosterError::TooLarge { bytes } => write!(
                f,
                "The roster is {bytes} bytes; at most {MAX_ROSTER_BYTES} are read."
            ),
            RosterError::NotRoster(why) => write!(
                f,
                "This is not a roster: {why}. Expected {{\"entries\": [{{\"name\": \"Ada\", \"player\": \"http://...\"}}, ...]}}."
            ),
            RosterError::TooMany { entries } => write!(
                f,
                "The roster has {entries} entries; a tournament takes at most {MAX_ENTRIES}."
            ),
            RosterError::BadName { entry, why } => write!(f, "Entry {entry}: {why}"),
            RosterError::DuplicateName {
                first,
                second,
                name,
            } => write!(
                f,
                "Entries {first} and {second} are both called {name:?}; give every entry its own name."
            ),
            RosterError::BadPlayer { entry, name, error } => {
                write!(f, "Entry {entry} ({name}): {error}")
            }
            RosterError::BadCode { entry, name, why } => {
                write!(f, "Entry {entry} ({name}): {why}")
            }
            RosterError::TooMuchCode { bytes } => write!(
                f,
                "The entries' code holds {} MB in all; a tournament takes at most {} MB.",
                bytes.div_ceil(1_000_000),
                MAX_CODE_BYTES / 1_000_000
            ),
            RosterError::BadLine { line, text } => write!(
                f,
                "Line {line} ({text:?}) is not \"name player\": write a name, a space, then a URL or builtin:NAME."
            ),
        }
    }
}

impl std::error::Error for RosterError {}

/// The first `n` characters of `text`, for quoting it in a message.
fn quote(text: &str) -> String {
    const QUOTE_CHARS: usize = 60;
    let mut q: String = text.chars().take(QUOTE_CHARS).collect();
    if text.chars().nth(QUOTE_CHARS).is_some() {
        q.push('…');
    }
    q
}

/// A name as it is kept: trimmed, then checked.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("the name is empty; every entry needs one.".to_string());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "the name {:?} is longer than {MAX_NAME_CHARS} characters.",
            quote(name)
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(format!(
            "the name {:?} holds a control character (a tab or a line break, say).",
            quote(name)
        ));
    }
    Ok(name.to_string())
}

impl Entry {
    /// An entry with its name trimmed and checked and its player read; `entry` numbers it in messages.
    fn checked(&self, entry: usize) -> Result<(Entry, AiPlayer), RosterError> {
        let name = check_name(&self.name).map_err(|why| RosterError::BadName { entry, why })?;
        if let Some(source) = &self.code {
            source.check().map_err(|why| RosterError::BadCode {
                entry,
                name: name.clone(),
                why,
            })?;
            let player = AiPlayer::Code(Arc::clone(source));
            let entry = Entry {
                name,
                player: player.to_string(),
                code: Some(Arc::clone(source)),
                content_type: ContentType::default(),
            };
            return Ok((entry, player));
        }
        let player =
            self.player
                .trim()
                .parse::<AiPlayer>()
                .map_err(|error| RosterError::BadPlayer {
                    entry,
                    name: name.clone(),
                    error,
                })?;
        let content_type = match player {
            AiPlayer::Web(_) => self.content_type,
            _ => ContentType::default(),
        };
        let entry = Entry {
            content_type,
            ..Entry::new(&name, &player.to_string())
        };
        Ok((entry, player))
    }
}

impl Roster {
    /// Reads a roster's JSON and checks it ([`Roster::check`]); unknown members are ignored.
    ///
    /// ```
    /// use gridarena_engine::tournament::roster::Roster;
    ///
    /// let text = r#"{"entries": [{"name": " Ada ", "player": "http://127.0.0.1:8001/"},
    ///                             {"name": "House", "player": "builtin:greedy"}]}"#;
    /// let roster = Roster::parse(text).unwrap();
    /// assert_eq!(roster.entries[0].name, "Ada");
    /// assert!(Roster::parse(r#"{"entries": [{"name": "Bo", "player": "greedy"}]}"#)
    ///     .unwrap_err()
    ///     .to_string()
    ///     .starts_with("Entry 1 (Bo): unknown player"));
    /// ```
    pub fn parse(text: &str) -> Result<Roster, RosterError> {
        if text.len() > MAX_ROSTER_BYTES {
            return Err(RosterError::TooLarge { bytes: text.len() });
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let roster: Roster =
            serde_json::from_str(text).map_err(|e| RosterError::NotRoster(e.to_string()))?;
        let players = roster.check()?;
        Ok(Roster {
            entries: players.into_iter().map(|(entry, _)| entry).collect(),
        })
    }

    /// Every entry, trimmed and with its player read, or the first problem: too many entries, a bad
    /// name or player, or a repeated name.
    pub fn check(&self) -> Result<Vec<(Entry, AiPlayer)>, RosterError> {
        if self.entries.len() > MAX_ENTRIES {
            return Err(RosterError::TooMany {
                entries: self.entries.len(),
            });
        }
        let code_bytes: usize = self
            .entries
            .iter()
            .filter_map(|e| e.code.as_ref())
            .map(|c| c.size())
            .sum();
        if code_bytes > MAX_CODE_BYTES {
            return Err(RosterError::TooMuchCode { bytes: code_bytes });
        }
        let mut checked: Vec<(Entry, AiPlayer)> = Vec::with_capacity(self.entries.len());
        for (i, entry) in self.entries.iter().enumerate() {
            let (entry, player) = entry.checked(i + 1)?;
            let folded = entry.name.to_lowercase();
            if let Some(first) = checked
                .iter()
                .position(|(e, _)| e.name.to_lowercase() == folded)
            {
                return Err(RosterError::DuplicateName {
                    first: first + 1,
                    second: i + 1,
                    name: entry.name,
                });
            }
            checked.push((entry, player));
        }
        Ok(checked)
    }

    /// The players, in roster order; the roster must have been checked.
    pub fn players(&self) -> Result<Vec<AiPlayer>, RosterError> {
        Ok(self.check()?.into_iter().map(|(_, p)| p).collect())
    }

    /// The names, in roster order.
    pub fn names(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.name.clone()).collect()
    }

    /// The roster as pretty JSON, the form it is exported in.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Entries from pasted lines, one `name player` a line: the player is the last word, the name all
/// before it (so names may hold spaces); a comma or tab between them is accepted, blank lines and lines
/// starting with `#` are skipped. Only the lines' shape is checked here; [`Roster::check`] checks the
/// entries once they are added.
///
/// ```
/// use gridarena_engine::tournament::roster::entries_from_lines;
///
/// let entries = entries_from_lines("Ada Lovelace http://127.0.0.1:8001/\n\n# the house\nHouse, builtin:greedy\r\n").unwrap();
/// assert_eq!(entries.len(), 2);
/// assert_eq!((entries[0].name.as_str(), entries[1].name.as_str()), ("Ada Lovelace", "House"));
/// assert!(entries_from_lines("http://127.0.0.1:8001/").is_err(), "a line needs a name");
/// ```
pub fn entries_from_lines(text: &str) -> Result<Vec<Entry>, RosterError> {
    if text.len() > MAX_ROSTER_BYTES {
        return Err(RosterError::TooLarge { bytes: text.len() });
    }
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || RosterError::BadLine {
            line: i + 1,
            text: quote(line),
        };
        let (name, player) = program_label_at(line)
            .or_else(|| line.rsplit_once(|c: char| c.is_whitespace() || c == ','))
            .ok_or_else(bad)?;
        let name = name.trim().trim_end_matches(',').trim();
        if name.is_empty() || player.is_empty() {
            return Err(bad());
        }
        if entries.len() >= MAX_ENTRIES {
            return Err(RosterError::TooMany {
                entries: entries.len() + 1,
            });
        }
        entries.push(Entry::new(name, player));
    }
    Ok(entries)
}

/// A line split before its program label (`course:` or `lines:` after a space or comma), whose command
/// may hold spaces.
fn program_label_at(line: &str) -> Option<(&str, &str)> {
    ProgramFormat::ALL
        .into_iter()
        .filter_map(|f| {
            let label = format!("{}:", f.name());
            line.match_indices(&label)
                .map(|(i, _)| i)
                .find(|&i| i > 0 && line[..i].ends_with(|c: char| c.is_whitespace() || c == ','))
        })
        .min()
        .map(|i| line.split_at(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::code::source::bytes_of;
    use crate::halma::code::{CodeFile, Format, Lang};

    fn entry(name: &str, player: &str) -> Entry {
        Entry::new(name, player)
    }

    #[test]
    fn names_must_be_present_printable_short_and_distinct() {
        let cases: [(&str, &str); 4] = [
            ("  ", "Entry 2: the name is empty"),
            (
                "Bo\tJr",
                "Entry 2: the name \"Bo\\tJr\" holds a control character",
            ),
            (&"x".repeat(41), "is longer than 40 characters"),
            ("ADA", "Entries 1 and 2 are both called \"ADA\""),
        ];
        for (name, message) in cases {
            let roster = Roster {
                entries: vec![
                    entry("Ada", "builtin:greedy"),
                    entry(name, "builtin:search"),
                ],
            };
            let e = roster.check().unwrap_err().to_string();
            assert!(e.contains(message), "{name:?}: {e}");
        }
    }

    #[test]
    fn players_are_read_with_the_engines_labels() {
        let roster = Roster {
            entries: vec![entry("Ada", " builtin:search "), entry("Bo", "ftp://x/")],
        };
        let e = roster.check().unwrap_err();
        assert!(matches!(e, RosterError::BadPlayer { entry: 2, .. }), "{e}");
        let ok = Roster {
            entries: vec![entry("Ada", " builtin:search ")],
        };
        assert_eq!(ok.check().unwrap()[0].0.player, "builtin:search");
    }

    #[test]
    fn hostile_texts_are_refused_with_a_reason() {
        assert!(matches!(
            Roster::parse("[1,2]"),
            Err(RosterError::NotRoster(_))
        ));
        assert!(matches!(
            Roster::parse(&" ".repeat(MAX_ROSTER_BYTES + 1)),
            Err(RosterError::TooLarge { .. })
        ));
        let many = Roster {
            entries: (0..=MAX_ENTRIES)
                .map(|i| entry(&format!("e{i}"), "builtin:greedy"))
                .collect(),
        };
        assert!(matches!(many.check(), Err(RosterError::TooMany { .. })));
        let lines = "a builtin:greedy\n".repeat(MAX_ENTRIES + 1);
        assert!(matches!(
            entries_from_lines(&lines),
            Err(RosterError::TooMany { .. })
        ));
    }

    #[test]
    fn programs_are_read_as_objects_or_labels() {
        let text = r#"{"entries": [
            {"name": "Ada", "program": {"command": "python3 homework.py", "dir": "agents/ada", "format": "course"}},
            {"name": "Bo", "program": {"command": "./bot", "format": "lines"}},
            {"name": "Cy", "player": "course:agents/cy:python3 hw.py"}]}"#;
        let roster = Roster::parse(text).expect("a roster");
        let players: Vec<String> = roster
            .players()
            .unwrap()
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(
            players,
            [
                "course:agents/ada:python3 homework.py",
                "lines:.:./bot",
                "course:agents/cy:python3 hw.py"
            ]
        );
        assert_eq!(Roster::parse(&roster.to_json()).unwrap(), roster);
        for (bad, says) in [
            (
                r#"{"name": "A", "player": "builtin:greedy", "program": {"command": "x", "format": "lines"}}"#,
                "not several",
            ),
            (r#"{"name": "A"}"#, "none of"),
            (
                r#"{"name": "A", "program": {"command": "x", "format": "web"}}"#,
                "unknown variant",
            ),
            (
                r#"{"name": "A", "program": {"command": " ", "format": "lines"}}"#,
                "command is empty",
            ),
            (
                r#"{"name": "A", "program": {"command": "x", "dir": "a:b", "format": "lines"}}"#,
                "colon",
            ),
        ] {
            let e = Roster::parse(&format!(r#"{{"entries": [{bad}]}}"#))
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        let pasted = entries_from_lines(
            "Ada Lovelace course:agents/ada:python3 hw.py --fast
Bo, lines:bots:./run x
",
        )
        .unwrap();
        assert_eq!(pasted[0].name, "Ada Lovelace");
        assert_eq!(pasted[0].player, "course:agents/ada:python3 hw.py --fast");
        assert_eq!(
            (pasted[1].name.as_str(), pasted[1].player.as_str()),
            ("Bo", "lines:bots:./run x")
        );
    }

    #[test]
    fn code_entries_carry_their_files_and_their_hash() {
        let text = r#"{"entries": [
            {"name": "Ada", "code": {"language": "python", "format": "course", "main": "homework.py",
             "files": {"homework.py": "import pickle\n", "distances.pkl": {"base64": "gASVAAAA"}}}},
            {"name": "Bo", "code": {"language": "javascript", "main": "main.js",
             "files": {"main.js": "export function move(r) { return null; }"}}},
            {"name": "House", "player": "builtin:greedy"}]}"#;
        let roster = Roster::parse(text).expect("a roster");
        let players = roster.players().unwrap();
        let AiPlayer::Code(ada) = &players[0] else {
            panic!("{:?}", players[0])
        };
        assert_eq!((ada.lang, ada.format), (Lang::Python, Format::Course));
        assert_eq!(bytes_of(&ada.files[1]), b"\x80\x04\x95\x00\x00\x00");
        let AiPlayer::Code(bo) = &players[1] else {
            panic!("{:?}", players[1])
        };
        assert_eq!(bo.format, Format::Function, "the default format");
        assert!(roster.entries[0].player.starts_with("code:python:course:"));
        // The export carries the hash, and reads back as the same roster.
        let json = roster.to_json();
        assert!(
            json.contains(&format!("\"sha256\": \"{}\"", ada.sha256())),
            "{json}"
        );
        assert_eq!(Roster::parse(&json).unwrap(), roster);
        // Code edited after it was recorded is refused.
        let edited = json.replacen("import pickle", "import os", 1);
        let e = Roster::parse(&edited).unwrap_err().to_string();
        assert!(e.contains("do not match their recorded sha256"), "{e}");
    }

    #[test]
    fn bad_code_entries_are_refused_with_a_reason() {
        for (code, says) in [
            (
                r#"{"language": "python", "main": "a.py", "files": {"b.py": "x"}}"#,
                "not one of the files",
            ),
            (
                r#"{"language": "python", "main": "a.py", "files": {"a.py": "x", "../evil": "y"}}"#,
                "not a file name",
            ),
            (
                r#"{"language": "python", "main": "a.py", "files": {"a.py": "x", "a.py": "y"}}"#,
                "given twice",
            ),
            (
                r#"{"language": "cobol", "main": "a.py", "files": {"a.py": "x"}}"#,
                "unknown variant",
            ),
            (
                r#"{"language": "javascript", "format": "course", "main": "a.js", "files": {"a.js": "x"}}"#,
                "course format",
            ),
            (
                r#"{"language": "python", "main": "a.py", "files": {"a.py": 7}}"#,
                "did not match",
            ),
            (
                r#"{"language": "python", "main": "a.py", "files": {"a.py": "x"}, "run": "rm -rf"}"#,
                "unknown field",
            ),
        ] {
            let text = format!(r#"{{"entries": [{{"name": "Ada", "code": {code}}}]}}"#);
            let e = Roster::parse(&text).unwrap_err().to_string();
            assert!(e.contains(says), "{code}: {e}");
        }
        let big = crate::halma::code::source::MAX_BYTES;
        let one = Source {
            lang: Lang::Python,
            format: Format::Course,
            main: "a.py".into(),
            files: vec![CodeFile::text("a.py", &"#".repeat(big))],
        };
        let class = Roster {
            entries: (0..=MAX_CODE_BYTES / big)
                .map(|i| Entry::code(&format!("s{i}"), one.clone()))
                .collect(),
        };
        assert!(matches!(
            class.check(),
            Err(RosterError::TooMuchCode { .. })
        ));
        let label = Roster {
            entries: vec![entry("Ada", "code:python:course:0123456789ab")],
        };
        let e = label.check().unwrap_err().to_string();
        assert!(e.contains("without its files"), "{e}");
    }

    #[test]
    fn a_roster_round_trips_through_its_json() {
        let roster = Roster {
            entries: vec![
                entry("Ada", "http://127.0.0.1:8001/"),
                entry("House", "builtin:greedy"),
            ],
        };
        assert_eq!(Roster::parse(&roster.to_json()).unwrap(), roster);
    }

    #[test]
    fn a_web_entry_says_how_its_requests_are_labelled() {
        let text = r#"{"entries": [
            {"name": "Bo", "player": "https://bo.example/ai", "contentType": "json"},
            {"name": "Cy", "player": "http://127.0.0.1:8001/"},
            {"name": "House", "player": "builtin:greedy"}]}"#;
        let roster = Roster::parse(text).unwrap();
        let types: Vec<ContentType> = roster.entries.iter().map(|e| e.content_type).collect();
        assert_eq!(
            types,
            [
                ContentType::Json,
                ContentType::TextPlain,
                ContentType::TextPlain
            ]
        );
        // Written back only where it is not the default, and read back the same.
        let json = roster.to_json();
        assert_eq!(json.matches("contentType").count(), 1, "{json}");
        assert_eq!(Roster::parse(&json).unwrap(), roster);
        for (bad, why) in [
            (
                r#"{"name": "H", "player": "builtin:greedy", "contentType": "json"}"#,
                "is for a web AI",
            ),
            (
                r#"{"name": "B", "player": "https://b.example/", "contentType": "xml"}"#,
                "\"text\" (text/plain) or \"json\"",
            ),
        ] {
            let text =
                format!(r#"{{"entries": [{bad}, {{"name": "Z", "player": "builtin:greedy"}}]}}"#);
            let e = Roster::parse(&text).unwrap_err().to_string();
            assert!(e.contains(why), "{e}");
        }
    }
}
