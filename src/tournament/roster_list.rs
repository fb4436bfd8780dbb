//! The roster being drawn up: entries added one by one or pasted as lines, removed, imported and
//! exported as JSON. Every change is checked by the engine's [`Roster::check`] before it is kept, so the
//! list on screen is always a roster a tournament accepts (names unique, players valid).

use gridarena_engine::halma::AiPlayer;
use gridarena_engine::tournament::roster::{entries_from_lines, Entry, Roster};

/// The largest roster file read: rosters of a class are a few kilobytes.
pub const MAX_ROSTER_FILE: usize = 1_000_000;

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
        let roster = Roster::parse(text).map_err(|e| format!("{name}: {e}"))?;
        let n = roster.entries.len();
        let note = programs_note(&roster.entries).unwrap_or_default();
        self.entries = roster.entries;
        Ok(format!("{n} entries loaded from {name}.{note}"))
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
    /// sharing, and shares no commands).
    pub fn link(&self) -> String {
        let entries = self
            .entries
            .iter()
            .filter(|e| !is_program(e))
            .cloned()
            .collect();
        serde_json::to_string(&Roster { entries }).unwrap_or_default()
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
        assert!(!r.link().contains("homework") && r.compact().contains("homework"));
        let mut linked = RosterList::default();
        let note = linked.import_link(r.compact().as_bytes()).unwrap().unwrap();
        assert!(note.contains("left out: Ada"), "{note}");
        assert_eq!(linked.roster().names(), ["Bo"]);
        assert_eq!(linked.import_link(r.link().as_bytes()), Ok(None));
        let plain = RosterList::default();
        assert_eq!(plain.export_note(), None);
    }
}
