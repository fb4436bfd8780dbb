//! The roster being drawn up: entries added one by one or pasted as lines, removed, imported and
//! exported as JSON. Every change is checked by the engine's [`Roster::check`] before it is kept, so the
//! list on screen is always a roster a tournament accepts (names unique, players valid).

use super::handed_in::entry_name;
use gridarena_engine::halma::code::{HashedSource, Source};
use gridarena_engine::halma::AiPlayer;
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::roster::{entries_from_lines, Entry, Roster, MAX_ROSTER_BYTES};

/// The largest roster file read: the engine's limit, since a roster with a class's code in it is tens
/// of megabytes.
pub const MAX_ROSTER_FILE: usize = MAX_ROSTER_BYTES;

/// What the roster shows of a code entry: its language, format and size, and its code's hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeSummary {
    pub lang: String,
    pub format: String,
    pub bytes: usize,
    /// The SHA-256 of its code, in hex.
    pub sha256: String,
}

impl CodeSummary {
    fn of(source: &HashedSource) -> CodeSummary {
        CodeSummary {
            lang: source.lang.to_string(),
            format: source.format.key().to_string(),
            bytes: source.size(),
            sha256: source.sha256().to_string(),
        }
    }

    /// The first 12 hex digits of the hash: enough to tell a class's entries apart on a projector.
    pub fn short_hash(&self) -> &str {
        &self.sha256[..self.sha256.len().min(12)]
    }

    /// The size for people: bytes, KB or MB.
    pub fn size(&self) -> String {
        size_text(self.bytes)
    }
}

/// A size for people: `820 B`, `18 KB`, `1.3 MB`.
pub fn size_text(bytes: usize) -> String {
    match bytes {
        b if b < 1000 => format!("{b} B"),
        b if b < 1_000_000 => format!("{} KB", b.div_ceil(1000)),
        b => format!("{:.1} MB", b as f64 / 1e6),
    }
}

/// Whether `entry` is a program: a command that a computer would run (the CLI, with the teacher's
/// `--allow-programs`, or a bridge). The page never runs one, but a roster is data from anyone, so the
/// page marks such entries, keeps them out of links and says so when they come in or go out.
pub fn is_program(entry: &Entry) -> bool {
    matches!(entry.player.parse::<AiPlayer>(), Ok(AiPlayer::Program(_)))
}

/// What the page says of the program entries among `entries`, if any.
fn programs_note(entries: &[Entry]) -> Option<String> {
    let names: Vec<&str> = entries
        .iter()
        .filter(|e| is_program(e))
        .map(|e| e.name.as_str())
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            " Marked as programs (commands a computer would run; the page cannot, and the CLI runs them \
             only with --allow-programs, so read them first): {}.",
            names.join(", ")
        )
    })
}

/// The roster being drawn up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RosterList {
    entries: Vec<Entry>,
}

impl RosterList {
    pub fn new(roster: Roster) -> RosterList {
        RosterList {
            entries: roster.entries,
        }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The summary of `entry`'s code, if it is a code entry (its hash is the one worked out when the
    /// code was read, so summing up is cheap).
    pub fn summary(&self, entry: &Entry) -> Option<CodeSummary> {
        entry.code.as_deref().map(CodeSummary::of)
    }

    /// Whether any entry is code.
    pub fn has_code(&self) -> bool {
        self.entries.iter().any(|e| e.code.is_some())
    }

    /// Adds code entries, each named after its file, folder or .zip (`raw`) and made distinct; the code
    /// that could not be read is named with why, and the rest are added.
    pub fn add_code(
        &mut self,
        handed_in: Vec<(String, Result<Source, String>)>,
    ) -> Result<String, String> {
        let mut next = self.entries.clone();
        let mut taken: Vec<String> = next.iter().map(|e| e.name.clone()).collect();
        let mut added = Vec::new();
        let mut refused = Vec::new();
        for (raw, source) in handed_in {
            match source {
                Ok(source) => {
                    let name = entry_name(&raw, &taken);
                    taken.push(name.clone());
                    added.push(name.clone());
                    next.push(Entry::code(&name, source));
                }
                Err(why) => refused.push(format!("{raw}: {why}")),
            }
        }
        if !added.is_empty() {
            self.replace(next)?;
        }
        let mut said = match added.len() {
            0 => String::new(),
            1 => format!("Code entry added: {}.", added[0]),
            n => format!("{n} code entries added: {}.", added.join(", ")),
        };
        if !refused.is_empty() {
            said.push_str(&format!(" Not added: {}.", refused.join("; ")));
        }
        if added.is_empty() {
            Err(said.trim().to_string())
        } else {
            Ok(said)
        }
    }

    pub fn roster(&self) -> Roster {
        Roster {
            entries: self.entries.clone(),
        }
    }

    /// Keeps `entries` if the engine accepts them as a roster; nothing changes otherwise.
    fn replace(&mut self, entries: Vec<Entry>) -> Result<(), String> {
        let checked = Roster { entries }.check().map_err(|e| e.to_string())?;
        self.entries = checked.into_iter().map(|(e, _)| e).collect();
        Ok(())
    }

    /// Adds one entry: `player` is a web AI's address or `builtin:greedy` / `builtin:search`.
    pub fn add(&mut self, name: &str, player: &str) -> Result<String, String> {
        let mut next = self.entries.clone();
        next.push(Entry::new(name, player));
        self.replace(next)?;
        Ok(format!("{} added.", name.trim()))
    }

    /// Adds pasted lines, one `name player` a line; all or none.
    pub fn paste(&mut self, text: &str) -> Result<String, String> {
        let added = entries_from_lines(text).map_err(|e| e.to_string())?;
        let n = added.len();
        let note = programs_note(&added).unwrap_or_default();
        let mut next = self.entries.clone();
        next.extend(added);
        self.replace(next)?;
        Ok(format!("{n} entries added.{note}"))
    }

    pub fn remove(&mut self, index: usize) -> Result<String, String> {
        if index >= self.entries.len() {
            return Err("That entry is no longer in the roster.".to_string());
        }
        let gone = self.entries.remove(index);
        Ok(format!("{} removed.", gone.name))
    }

    /// Replaces the roster with a roster file's contents (the form [`RosterList::to_json`] writes).
    pub fn import(&mut self, name: &str, bytes: &[u8]) -> Result<String, String> {
        let text = std::str::from_utf8(bytes).map_err(|_| format!("{name} is not a text file."))?;
        // A roster is parsed once; only a file that is not one is asked whether it is a bundle.
        let roster = Roster::parse(text).map_err(|e| match Tournament::is_bundle(text) {
            true => format!(
                "{name} is a tournament, not a roster: continue it with \"Resume a tournament\"."
            ),
            false => format!("{name}: {e}"),
        })?;
        let n = roster.entries.len();
        let note = programs_note(&roster.entries).unwrap_or_default();
        self.entries = roster.entries;
        Ok(format!("{n} entries loaded from {name}.{note}"))
    }

    /// Takes `roster`'s entries in place of these (a resumed tournament's, for example).
    pub fn take(&mut self, roster: Roster) {
        self.entries = roster.entries;
    }

    /// Takes the roster a link brought: a link may come from anyone, and may not bring commands, so
    /// its program entries are left out. Returns what to say of those, if there were any.
    pub fn import_link(&mut self, bytes: &[u8]) -> Result<Option<String>, String> {
        let text =
            std::str::from_utf8(bytes).map_err(|_| "the link's roster is not text".to_string())?;
        let roster = Roster::parse(text).map_err(|e| format!("the link: {e}"))?;
        let (programs, kept): (Vec<Entry>, Vec<Entry>) =
            roster.entries.into_iter().partition(is_program);
        self.entries = kept;
        Ok((!programs.is_empty()).then(|| {
            let names: Vec<&str> = programs.iter().map(|e| e.name.as_str()).collect();
            format!(
                "The link's roster named {} program entr{} (commands a computer would run), which a \
                 link may not bring, so {} left out: {}. Import a roster file you trust to add them.",
                names.len(),
                if names.len() == 1 { "y" } else { "ies" },
                if names.len() == 1 { "it was" } else { "they were" },
                names.join(", ")
            )
        }))
    }

    /// What exporting the roster should say: its program entries go out with it, by name.
    pub fn export_note(&self) -> Option<String> {
        programs_note(&self.entries)
            .map(|note| format!("roster.json includes the program entries.{note}"))
    }

    pub fn to_json(&self) -> String {
        self.roster().to_json()
    }

    /// The roster in one line, for the browser's storage.
    pub fn compact(&self) -> String {
        serde_json::to_string(&self.roster()).unwrap_or_default()
    }

    /// The roster in one line for the page's link, without its program entries (a link is for
    /// sharing, and shares no commands); `None` for a roster with code, too big for a link.
    pub fn link(&self) -> Option<String> {
        if self.has_code() {
            return None;
        }
        let entries = self
            .entries
            .iter()
            .filter(|e| !is_program(e))
            .cloned()
            .collect();
        serde_json::to_string(&Roster { entries }).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_added_checked_and_removed() {
        let mut r = RosterList::default();
        assert!(r.add(" Ada ", "builtin:greedy").is_ok());
        assert_eq!(r.entries()[0].name, "Ada");
        assert!(r.add("ada", "builtin:search").unwrap_err().contains("ada"));
        assert!(r.add("Bo", "greedy").is_err(), "not a player");
        assert!(r.add("", "builtin:greedy").is_err());
        assert_eq!(r.entries().len(), 1);
        assert_eq!(
            r.paste("Bo http://127.0.0.1:8001/\n# x\nCy, builtin:search\n")
                .unwrap(),
            "2 entries added."
        );
        assert!(r.paste("Di builtin:greedy\nAda builtin:greedy").is_err());
        assert_eq!(r.entries().len(), 3, "a bad paste adds nothing");
        r.remove(0).unwrap();
        assert!(r.remove(9).is_err());
        assert_eq!(r.roster().names(), ["Bo", "Cy"]);
    }

    #[test]
    fn a_roster_file_round_trips_and_a_hostile_one_is_refused() {
        let mut r = RosterList::default();
        r.paste("Ada builtin:greedy\nBo http://127.0.0.1:8001/")
            .unwrap();
        let mut back = RosterList::default();
        back.import("roster.json", r.to_json().as_bytes()).unwrap();
        assert_eq!(back, r);
        back.import("c.json", r.compact().as_bytes()).unwrap();
        assert_eq!(back, r);
        for bad in [
            &b"\xff\xfe"[..],
            b"[]",
            b"{\"entries\":[{\"name\":\"<b>x</b>\",\"player\":\"javascript:alert(1)\"}]}",
        ] {
            assert!(back.import("bad.json", bad).is_err());
        }
        assert_eq!(back, r, "a refused file changes nothing");
    }

    #[test]
    fn program_entries_are_marked_and_a_link_brings_none() {
        let mut r = RosterList::default();
        let said = r
            .paste("Ada course:agents/ada:python3 homework.py\nBo builtin:greedy")
            .unwrap();
        assert!(
            said.contains("Marked as programs") && said.contains("Ada"),
            "{said}"
        );
        assert!(is_program(&r.entries()[0]) && !is_program(&r.entries()[1]));
        assert!(r.export_note().unwrap().contains("Ada"));
        // The page's own link leaves the program out; the storage keeps it.
        let link = r.link().unwrap();
        assert!(!link.contains("homework") && r.compact().contains("homework"));
        let mut linked = RosterList::default();
        let note = linked.import_link(r.compact().as_bytes()).unwrap().unwrap();
        assert!(note.contains("left out: Ada"), "{note}");
        assert_eq!(linked.roster().names(), ["Bo"]);
        assert_eq!(linked.import_link(link.as_bytes()), Ok(None));
        let plain = RosterList::default();
        assert_eq!(plain.export_note(), None);
    }

    fn source(main: &str, text: &str) -> Result<Source, String> {
        gridarena_engine::halma::code::source::source_of(vec![
            gridarena_engine::halma::code::CodeFile::text(main, text),
        ])
    }

    #[test]
    fn code_entries_are_named_summarized_and_kept_out_of_links() {
        let mut r = RosterList::default();
        r.paste("ada builtin:greedy").unwrap();
        assert!(r.link().is_some());
        let said = r
            .add_code(vec![
                (
                    "ada.py".into(),
                    source("ada.py", "def move(r):\n    return None\n"),
                ),
                (
                    "bo.js".into(),
                    source("bo.js", "function move(r) { return null; }"),
                ),
                (
                    "cy.zip".into(),
                    Err("no main file: name it main.py or main.js".into()),
                ),
            ])
            .unwrap();
        assert!(
            said.starts_with("2 code entries added: ada 2, bo."),
            "{said}"
        );
        assert!(said.contains("Not added: cy.zip: no main file"), "{said}");
        assert_eq!(r.roster().names(), ["ada", "ada 2", "bo"]);
        let summary = r.summary(&r.entries()[1]).unwrap();
        assert_eq!(
            (summary.lang.as_str(), summary.format.as_str()),
            ("Python", "function")
        );
        assert_eq!(summary.short_hash().len(), 12);
        assert_eq!(summary.size(), "29 B");
        assert!(
            r.summary(&r.entries()[0]).is_none(),
            "a house bot has no code"
        );
        assert_eq!(r.link(), None, "too big for a link");
        // The roster file and the browser's copy carry the code, and read back the same.
        let mut back = RosterList::default();
        back.import("roster.json", r.to_json().as_bytes()).unwrap();
        assert_eq!(back.summary(&back.entries()[1]), Some(summary));
        assert_eq!(back.roster(), r.roster());
        r.remove(1).unwrap();
        assert_eq!(r.summary(&r.entries()[1]).unwrap().lang, "JavaScript");
        assert!(r.add_code(vec![("x".into(), Err("bad".into()))]).is_err());
        assert_eq!(
            (size_text(999), size_text(18_200), size_text(1_260_000)),
            (
                "999 B".to_string(),
                "19 KB".to_string(),
                "1.3 MB".to_string()
            )
        );
    }
}
