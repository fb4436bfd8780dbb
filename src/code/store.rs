//! The AIs kept in this browser (localStorage), so a reload or a closed tab loses none of them.
//!
//! One key holds the whole list: a class's AIs are a few hundred kilobytes at most, well inside what
//! browsers keep per site (about 5 MB), and one key cannot be half-written.

use super::ai::{CodeAi, CodeRef, Source};

/// The localStorage key.
const KEY: &str = "gridarena.code.ais";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Every AI kept here, in the order they were made. Stored text that no longer reads (edited by hand,
/// say) is an error rather than an empty list, so that nothing overwrites it unnoticed.
pub fn load() -> Result<Vec<CodeAi>, String> {
    let Some(text) = storage().and_then(|s| s.get_item(KEY).ok().flatten()) else {
        return Ok(Vec::new());
    };
    read(&text)
}

/// The players the AIs kept here give (each AI's draft, then its saved versions, newest first), for the
/// arena's player menu. Read from the stored text's shape alone: the arena's download then carries
/// neither the AIs' reader nor their files; an AI whose name no longer reads is left out.
pub fn players() -> Vec<CodeRef> {
    storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .map(|text| players_in(&text))
        .unwrap_or_default()
}

fn players_in(text: &str) -> Vec<CodeRef> {
    let Ok(serde_json::Value::Array(ais)) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let mut players = Vec::new();
    for ai in &ais {
        let Some(Ok(name)) = ai["name"].as_str().map(super::ai::check_name) else {
            continue;
        };
        let mut versions: Vec<u32> = ai["versions"]
            .as_array()
            .map(|v| {
                v.iter()
                    .filter_map(|v| v["n"].as_u64().and_then(|n| u32::try_from(n).ok()))
                    .collect()
            })
            .unwrap_or_default();
        versions.reverse();
        players.push(CodeRef {
            name: name.clone(),
            version: None,
        });
        players.extend(versions.into_iter().map(|n| CodeRef {
            name: name.clone(),
            version: Some(n),
        }));
    }
    players
}

/// The list from its stored text.
pub fn read(text: &str) -> Result<Vec<CodeAi>, String> {
    // Through a `Value`, as the page reads all its JSON (one reader in the wasm, not two).
    serde_json::from_str::<serde_json::Value>(text)
        .and_then(serde_json::from_value)
        .map_err(|e| {
            format!("the AIs kept in this browser ({KEY} in its storage) could not be read: {e}")
        })
}

/// Keeps `ais`; the error says why not (most often: the browser's storage for this site is full).
pub fn save(ais: &[CodeAi]) -> Result<(), String> {
    let text = serde_json::to_string(ais).map_err(|e| e.to_string())?;
    let storage = storage().ok_or("this browser keeps no local storage here")?;
    storage.set_item(KEY, &text).map_err(|_| {
        format!(
            "the browser refused to keep {} KB of AIs (its storage for this site is full): \
             export some AIs and delete them here",
            text.len().div_ceil(1000)
        )
    })
}

/// What `code` names among `ais`, or why nothing.
pub fn find<'a>(ais: &'a [CodeAi], code: &CodeRef) -> Result<&'a Source, String> {
    let ai = ais.iter().find(|a| a.name == code.name).ok_or_else(|| {
        format!(
            "no AI named {:?} is kept in this browser: write one on the \"Write an AI\" page (#/code)",
            code.name
        )
    })?;
    ai.source(code.version).ok_or_else(|| match code.version {
        Some(n) => format!("{:?} has no saved version v{n}", code.name),
        None => format!("{:?} has no draft", code.name),
    })
}

/// The source `code` names in this browser's storage.
pub fn source_of(code: &CodeRef) -> Result<Source, String> {
    find(&load()?, code).cloned()
}

#[cfg(test)]
mod tests {
    use super::super::ai::{CodeFile, Format, Lang};
    use super::*;

    #[test]
    fn a_kept_list_reads_back_and_names_what_is_missing() {
        let source = Source {
            lang: Lang::JavaScript,
            format: Format::Function,
            main: "main.js".into(),
            files: vec![CodeFile::text("main.js", "export function move() {}")],
        };
        let mut ai = CodeAi::new("Ada", source).unwrap();
        ai.save_version(5);
        let text = serde_json::to_string(&vec![ai]).unwrap();
        let ais = read(&text).unwrap();
        let found = find(&ais, &"code:Ada@v1".parse().unwrap()).unwrap();
        assert_eq!(found.lang, Lang::JavaScript);
        assert!(find(&ais, &"code:Ada".parse().unwrap()).is_ok());
        let missing = find(&ais, &"code:Bob".parse().unwrap()).unwrap_err();
        assert!(missing.contains("#/code"), "{missing}");
        let no_version = find(&ais, &"code:Ada@v2".parse().unwrap()).unwrap_err();
        assert!(no_version.contains("v2"), "{no_version}");
        assert!(read("{not json").unwrap_err().contains("could not be read"));
        // The arena's menu reads the same players as the AIs give.
        let listed: Vec<CodeRef> = ais.iter().flat_map(CodeAi::players).collect();
        assert_eq!(players_in(&text), listed);
        assert!(players_in("{not json").is_empty());
        assert!(
            players_in(r#"[{"name":"<b>","versions":[]},{"name":"Bo"}]"#)
                .iter()
                .map(ToString::to_string)
                .eq(["code:Bo"])
        );
    }
}
