//! No import circles between the modules of one folder (issue 52): in `src/` and `crates/engine/src/`,
//! if module A of a folder uses module B of the same folder, B must not use A, directly or round a longer
//! circle. A circle means neither can be read, tested or moved without the other: the shared piece
//! belongs to one of them, or to a module of its own that both use.
//!
//! A module of a folder is one of its files (`board_paint.rs`) or one of its subfolders (`game/`, with
//! everything in it). A use is any path in the code that names a module: `use super::x`,
//! `crate::halma::x::Y` inline, and the groups of `use super::{x, y::Z}`. Comments and a file's
//! `#[cfg(test)]` tail are not read: a test may use what it likes. `src/bin/` is left out: each bin is
//! a crate of its own, which reaches the library only as `gridarena::`. A name only re-exported by a
//! folder's `mod.rs` is not followed to the file that defines it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The circles known and not yet fixed, each as its folder and its modules in name order: none now
/// (issue 52 ended the last two). A new circle fails the test; one that has to stay for a while (its
/// files mid-rewrite) can be listed here, and taken out once fixed.
const KNOWN: &[(&str, &[&str])] = &[];

/// Every `.rs` file under `dir`, with the module path of each from the crate's root (`src/halma/x.rs`
/// is `halma::x`, `src/halma/mod.rs` is `halma`).
fn files(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<String>)>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path != root.join("bin") {
                files(root, &path, out);
            }
        } else if path.extension().is_some_and(|x| x == "rs") {
            let rel = path.strip_prefix(root).expect("under the root");
            let mut module: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            out.push((path, module));
        }
    }
}

/// The code of a file as the test reads it: no comments, no `#[cfg(test)]` tail.
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a path's tail stands for, starting after its `::` at `rest`: `a::b`, `{a, b::c}`, `*`.
/// Each is returned as its segments after `prefix`, cut at the first one that is not a module name
/// (`self` stands for the prefix itself).
fn tails(rest: &str, prefix: &[String]) -> (Vec<Vec<String>>, usize) {
    let trimmed = rest.trim_start();
    let mut at = rest.len() - trimmed.len();
    if let Some(group) = trimmed.strip_prefix('{') {
        at += 1;
        let mut found = Vec::new();
        let mut inner = group;
        loop {
            let skipped = inner.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
            at += inner.len() - skipped.len();
            inner = skipped;
            if inner.is_empty() {
                return (found, at);
            }
            if inner.starts_with('}') {
                return (found, at + 1);
            }
            let (paths, used) = tails(inner, prefix);
            if used == 0 {
                // Something this reader does not follow (`*`, `as x`): skip a character.
                let next = inner.chars().next().map_or(1, char::len_utf8);
                at += next;
                inner = &inner[next..];
            } else {
                found.extend(paths);
                at += used;
                inner = &inner[used..];
            }
        }
    }
    let ident: String = trimmed.chars().take_while(|&c| is_ident(c)).collect();
    if ident.is_empty() {
        return (vec![prefix.to_vec()], at);
    }
    at += ident.len();
    let mut path = prefix.to_vec();
    if ident != "self" {
        path.push(ident);
    }
    match rest[at..].strip_prefix("::") {
        Some(more) => {
            let (paths, used) = tails(more, &path);
            (paths, at + 2 + used)
        }
        None => (vec![path], at),
    }
}

/// The module paths (from the crate's root) that a file of module `module` names.
fn uses(text: &str, module: &[String], is_mod_file: bool) -> Vec<Vec<String>> {
    // A file's `super` is its parent module; a `mod.rs`'s module is its folder, one level up already.
    let own = if is_mod_file {
        module.to_vec()
    } else {
        module[..module.len().saturating_sub(1)].to_vec()
    };
    let parent = if is_mod_file {
        own[..own.len().saturating_sub(1)].to_vec()
    } else {
        own.clone()
    };
    let code = code(text);
    let mut found = Vec::new();
    for (i, _) in code.char_indices() {
        // A start in the middle of a path (`super::super::x`) was read with the path's start.
        let before = code[..i].chars().next_back();
        if before.is_some_and(is_ident) || code[..i].ends_with("::") {
            continue;
        }
        let rest = &code[i..];
        let (base, after) = if let Some(after) = rest.strip_prefix("crate::") {
            (Vec::new(), after)
        } else if let Some(mut after) = rest.strip_prefix("super::") {
            let mut base = parent.clone();
            while let Some(more) = after.strip_prefix("super::") {
                base.pop();
                after = more;
            }
            (base, after)
        } else {
            continue;
        };
        found.extend(tails(after, &base).0);
    }
    found
}

/// A circle: its folder and its modules in name order.
type Circle = (String, Vec<String>);

/// The circles among the modules of each folder, each with its uses (`a uses b`), for the message.
fn circles(root: &Path, label: &str) -> BTreeMap<Circle, Vec<String>> {
    let mut all = Vec::new();
    files(root, root, &mut all);
    // Each folder's modules (a file's stem, or a subfolder's name), and who of them uses whom.
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (path, _) in &all {
        let rel = path.strip_prefix(root).expect("under the root");
        let parts: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        for (depth, name) in parts.iter().enumerate() {
            if depth + 1 == parts.len() && matches!(name.as_str(), "mod" | "lib" | "main") {
                continue;
            }
            graphs
                .entry(parts[..depth].to_vec())
                .or_default()
                .entry(name.clone())
                .or_default();
        }
    }
    for (path, module) in &all {
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let is_mod_file = path.file_stem().is_some_and(|s| s == "mod");
        for used in uses(&text, module, is_mod_file) {
            // Each folder above the file: the file's module there uses the folder's module `used` names.
            for (depth, me) in module.iter().enumerate() {
                let folder = &module[..depth];
                if used.len() > depth && used[..depth] == *folder && used[depth] != *me {
                    if let Some(graph) = graphs.get_mut(folder) {
                        if graph.contains_key(&used[depth]) {
                            graph
                                .get_mut(me)
                                .expect("a module of its folder")
                                .insert(used[depth].clone());
                        }
                    }
                }
            }
        }
    }
    let mut found = BTreeMap::new();
    for (folder, graph) in &graphs {
        for circle in strongly_connected(graph) {
            let folder = folder
                .iter()
                .fold(label.to_string(), |p, f| format!("{p}/{f}"));
            let uses = circle
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|b| circle.contains(b))
                        .map(move |b| format!("{a} uses {b}"))
                })
                .collect();
            found.insert((folder, circle), uses);
        }
    }
    found
}

/// The groups of more than one module that all reach each other (Tarjan's algorithm), each sorted.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        for w in &s.graph[v] {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn no_folder_has_an_import_circle() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = circles(&here.join("src"), "src");
    found.extend(circles(
        &here.join("crates/engine/src"),
        "crates/engine/src",
    ));
    let known: BTreeSet<Circle> = KNOWN
        .iter()
        .map(|(folder, modules)| {
            (
                folder.to_string(),
                modules.iter().map(|m| m.to_string()).collect(),
            )
        })
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|(circle, _)| !known.contains(*circle))
        .map(|((folder, _), uses)| format!("{folder}: {}", uses.join(", ")))
        .collect();
    let fixed: Vec<&Circle> = known.iter().filter(|c| !found.contains_key(*c)).collect();
    assert!(
        new.is_empty(),
        "import circles between the modules of one folder:\n{}\nMove the piece they share to one of \
         them, or to a module both use.",
        new.join("\n")
    );
    // Not a failure: the files of a known circle may be mid-rewrite by someone else. Said, so that the
    // list shrinks.
    if !fixed.is_empty() {
        eprintln!("these known circles are gone: take them out of KNOWN in tests/import_cycles.rs: {fixed:?}");
    }
}

/// The reader itself, on a made-up folder: it must see a circle, or the test above could not fail.
#[test]
fn the_reader_sees_uses_in_every_form() {
    let module = |m: &str| m.split("::").map(str::to_string).collect::<Vec<_>>();
    let text = "use super::a::X;\nuse super::{b, c::{D, E}};\nfn f() { crate::x::d::g(); }\n\
                use super::super::w;\n\
                // super::z in a comment\n#[cfg(test)]\nmod tests { use super::super::y; }";
    let found = uses(text, &module("x::f"), false);
    assert_eq!(
        found,
        [
            module("x::a::X"),
            module("x::b"),
            module("x::c::D"),
            module("x::c::E"),
            module("x::d::g"),
            module("w"),
        ]
    );
    // From a folder's mod.rs, `super` is the folder's parent.
    assert_eq!(uses("use super::q;", &module("x"), true), [module("q")]);

    let mut graph = BTreeMap::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")] {
        graph
            .entry(from.to_string())
            .or_insert_with(BTreeSet::new)
            .insert(to.to_string());
        graph.entry(to.to_string()).or_insert_with(BTreeSet::new);
    }
    assert_eq!(
        strongly_connected(&graph),
        [vec!["a".to_string(), "b".into(), "c".into()]]
    );
}
