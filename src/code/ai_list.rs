//! The "Write an AI" page's logic apart from drawing, plain Rust tested natively: the AIs kept in this
//! browser as the page changes them (add under a free name, the draft's typed text, a saved version,
//! the format, delete), which file the editor shows, and the words and choices the page lists.

use super::ai::{CodeAi, CodeFile, Format, Lang, Source};
use gridarena_engine::halma::code::source::source_of;

/// The opponents "Play" offers besides the AIs kept here: each player's label and what the list says.
pub const BUILT_IN_OPPONENTS: [(&str, &str); 2] = [
    ("builtin:greedy", "Built-in AI: greedy"),
    ("builtin:search", "Built-in AI: search"),
];

/// The AI named `name`.
pub fn find<'a>(ais: &'a [CodeAi], name: &str) -> Option<&'a CodeAi> {
    ais.iter().find(|ai| ai.name == name)
}

fn find_mut<'a>(ais: &'a mut [CodeAi], name: &str) -> Option<&'a mut CodeAi> {
    ais.iter_mut().find(|ai| ai.name == name)
}

/// The file the editor shows of `ai`, asked for `path`: its path and text. A path that names no text
/// file (a binary one, or none: another AI was chosen) shows the main file.
pub fn shown_file(ai: &CodeAi, path: &str) -> (String, String) {
    let files = &ai.draft.files;
    files
        .iter()
        .find(|f| f.path == path && f.text.is_some())
        .or_else(|| files.iter().find(|f| f.path == ai.draft.main))
        .map_or_else(
            || (ai.draft.main.clone(), String::new()),
            |f| (f.path.clone(), f.text.clone().unwrap_or_default()),
        )
}

/// Puts the typed `text` into `path` of `name`'s draft; whether that changed anything (only a change
/// is kept).
pub fn set_text(ais: &mut [CodeAi], name: &str, path: &str, text: String) -> bool {
    let Some(file) =
        find_mut(ais, name).and_then(|ai| ai.draft.files.iter_mut().find(|f| f.path == path))
    else {
        return false;
    };
    if file.text.as_deref() == Some(text.as_str()) {
        return false;
    }
    file.text = Some(text);
    true
}

/// Adds `ai` under its name, or the first free `name 2`, `name 3`...; returns the name it got.
pub fn add(ais: &mut Vec<CodeAi>, mut ai: CodeAi) -> String {
    let taken: Vec<String> = ais.iter().map(|a| a.name.clone()).collect();
    ai.name = free_name(&ai.name, &taken);
    let name = ai.name.clone();
    ais.push(ai);
    name
}

/// Keeps `name`'s draft as its next version, saved at `now_ms`; the version's number.
pub fn save_version(ais: &mut [CodeAi], name: &str, now_ms: u64) -> Option<u32> {
    find_mut(ais, name).map(|ai| ai.save_version(now_ms))
}

/// Takes `name` off the list; the AI chosen after it (the first left).
pub fn delete(ais: &mut Vec<CodeAi>, name: &str) -> Option<String> {
    ais.retain(|ai| ai.name != name);
    ais.first().map(|ai| ai.name.clone())
}

/// Sets the format of `name`'s draft.
pub fn set_format(ais: &mut [CodeAi], name: &str, format: Format) {
    if let Some(ai) = find_mut(ais, name) {
        ai.draft.format = format;
    }
}

/// Whom "Play against" offers: the built-in AIs, then every AI's draft and saved versions, each as its
/// player label and the words the list shows.
pub fn opponents(ais: &[CodeAi]) -> Vec<(String, String)> {
    let built_in = BUILT_IN_OPPONENTS
        .iter()
        .map(|(v, l)| (v.to_string(), l.to_string()));
    let kept = ais.iter().flat_map(CodeAi::players).map(|player| {
        let label = match player.version {
            Some(n) => format!("{} v{n}", player.name),
            None => format!("{} (draft)", player.name),
        };
        (player.to_string(), label)
    });
    built_in.chain(kept).collect()
}

/// What the list shows of an AI: its name, language and format.
pub fn describe(ai: &CodeAi) -> String {
    let lang = match ai.draft.lang {
        Lang::Python => "Python",
        Lang::JavaScript => "JavaScript",
    };
    let format = match ai.draft.format {
        Format::Function => "",
        Format::Course => ", course",
    };
    format!("{} ({lang}{format})", ai.name)
}

/// `name`, or `name 2`, `name 3`... where `name` is taken.
pub fn free_name(name: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == name) {
        return name.to_string();
    }
    (2..)
        .map(|n| format!("{name} {n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_else(|| name.to_string())
}

/// A new AI made from files (an import or a link).
pub fn ai_from_files(name: &str, files: Vec<CodeFile>) -> Result<CodeAi, String> {
    let source: Source = source_of(files)?;
    let stem = name.trim_end_matches(".zip");
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .take(super::ai::MAX_NAME_CHARS)
        .collect();
    CodeAi::new(
        if clean.trim().is_empty() {
            "Imported"
        } else {
            &clean
        },
        source,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ai(name: &str) -> CodeAi {
        let source = Source {
            lang: Lang::Python,
            format: Format::Function,
            main: "main.py".into(),
            files: vec![
                CodeFile::text("main.py", "def move(r):\n    return None\n"),
                CodeFile::text("lib/help.py", "X = 1\n"),
                CodeFile::binary("table.bin", &[1, 2, 3]),
            ],
        };
        CodeAi::new(name, source).unwrap()
    }

    #[test]
    fn a_name_taken_gets_the_next_free_number() {
        let mut ais = Vec::new();
        assert_eq!(add(&mut ais, ai("Ada")), "Ada");
        assert_eq!(add(&mut ais, ai("Ada")), "Ada 2");
        assert_eq!(add(&mut ais, ai("Ada")), "Ada 3");
        assert_eq!(
            ais.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
            ["Ada", "Ada 2", "Ada 3"]
        );
    }

    #[test]
    fn the_editor_shows_the_text_file_asked_for_else_the_main_one() {
        let a = ai("Ada");
        assert_eq!(
            shown_file(&a, "lib/help.py"),
            ("lib/help.py".into(), "X = 1\n".into())
        );
        for other in ["table.bin", "", "gone.py"] {
            assert_eq!(shown_file(&a, other).0, "main.py", "{other}");
        }
    }

    #[test]
    fn only_a_change_of_a_known_file_is_kept() {
        let mut ais = vec![ai("Ada")];
        assert!(set_text(&mut ais, "Ada", "main.py", "pass\n".into()));
        assert_eq!(ais[0].draft.files[0].text.as_deref(), Some("pass\n"));
        assert!(!set_text(&mut ais, "Ada", "main.py", "pass\n".into()));
        assert!(!set_text(&mut ais, "Ada", "nope.py", "x".into()));
        assert!(!set_text(&mut ais, "Bob", "main.py", "x".into()));
    }

    #[test]
    fn versions_formats_and_deletes_change_the_named_ai() {
        let mut ais = vec![ai("Ada"), ai("Bob")];
        assert_eq!(save_version(&mut ais, "Bob", 5), Some(1));
        assert_eq!(save_version(&mut ais, "Bob", 6), Some(2));
        assert_eq!(save_version(&mut ais, "Eve", 6), None);
        assert!(ais[0].versions.is_empty());
        set_format(&mut ais, "Bob", Format::Course);
        assert_eq!(
            (ais[0].draft.format, ais[1].draft.format),
            (Format::Function, Format::Course)
        );
        assert_eq!(describe(&ais[1]), "Bob (Python, course)");
        assert_eq!(describe(&ais[0]), "Ada (Python)");
        assert_eq!(delete(&mut ais, "Ada").as_deref(), Some("Bob"));
        assert_eq!(delete(&mut ais, "Bob"), None);
        assert!(ais.is_empty());
    }

    #[test]
    fn the_opponents_are_the_built_ins_then_each_draft_and_its_versions_newest_first() {
        let mut ais = vec![ai("Ada")];
        save_version(&mut ais, "Ada", 1);
        save_version(&mut ais, "Ada", 2);
        let labels: Vec<(String, String)> = opponents(&ais);
        let want = [
            ("builtin:greedy", "Built-in AI: greedy"),
            ("builtin:search", "Built-in AI: search"),
            ("code:Ada", "Ada (draft)"),
            ("code:Ada@v2", "Ada v2"),
            ("code:Ada@v1", "Ada v1"),
        ];
        assert_eq!(
            labels,
            want.map(|(v, l)| (v.to_string(), l.to_string())).to_vec()
        );
    }

    #[test]
    fn an_imported_name_is_cleaned() {
        let files = vec![CodeFile::text("main.py", "def move(r):\n    return None\n")];
        assert_eq!(
            ai_from_files("my/ai!.zip", files.clone()).unwrap().name,
            "my-ai-"
        );
        assert_eq!(ai_from_files(".zip", files).unwrap().name, "Imported");
    }
}
