//! No Leptos component in the page crate is longer than a screen: [`MAX_LINES`] from its `#[component]`
//! line to its closing brace. A longer one mixes logic with drawing; move the logic into a plain model
//! tested natively, and the view into smaller components named for what they show.

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a component may take, its `#[component]` line and closing brace included.
const MAX_LINES: usize = 150;

/// One component: where it is, its name, and how many lines it takes.
#[derive(Debug, PartialEq)]
struct Component {
    file: String,
    name: String,
    lines: usize,
}

/// Every component in `text`. A component runs from its `#[component]` line to the first line after
/// its `fn` that is a lone `}` at the start of the line (rustfmt's closing brace of an item).
fn components(file: &str, text: &str) -> Vec<Component> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim_start().starts_with("#[component]") {
            i += 1;
            continue;
        }
        let Some(f) = (i + 1..lines.len()).find(|&j| fn_name(lines[j]).is_some()) else {
            break;
        };
        let end = (f..lines.len())
            .find(|&k| lines[k] == "}")
            .unwrap_or(lines.len() - 1);
        found.push(Component {
            file: file.to_string(),
            name: fn_name(lines[f]).unwrap_or_default().to_string(),
            lines: end - i + 1,
        });
        i = end + 1;
    }
    found
}

/// The name of the function a line declares (`pub fn ArenaPage(`), if it declares one.
fn fn_name(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once("fn ")?;
    if !(line.trim_start().starts_with("fn ") || line.contains(" fn ")) {
        return None;
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn no_component_is_longer_than_a_screen() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    for path in rust_files(&root.join("src")) {
        let text = fs::read_to_string(&path).expect("a readable source file");
        let file = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        all.extend(components(&file, &text));
    }
    assert!(
        all.len() > 20,
        "the scan found only {} components",
        all.len()
    );
    let long: Vec<String> = all
        .iter()
        .filter(|c| c.lines > MAX_LINES)
        .map(|c| format!("{} in {}: {} lines", c.name, c.file, c.lines))
        .collect();
    assert!(
        long.is_empty(),
        "components over {MAX_LINES} lines (move logic into a model, split the view):\n{}",
        long.join("\n")
    );
}

#[test]
fn a_component_is_counted_from_its_attribute_to_its_closing_brace() {
    let text = "use x;\n\n#[component]\npub fn Short(a: u8) -> impl IntoView {\n    view! {\n    }\n}\n\n\
                fn helper() {\n}\n\n/// Doc.\n#[component]\nfn Other(\n    b: u8,\n) -> impl IntoView {\n}\n";
    assert_eq!(
        components("f.rs", text),
        vec![
            Component {
                file: "f.rs".into(),
                name: "Short".into(),
                lines: 5,
            },
            Component {
                file: "f.rs".into(),
                name: "Other".into(),
                lines: 5,
            },
        ]
    );
}
