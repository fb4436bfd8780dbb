//! Reads the page list, `pages.json` (the one list of the app's modules: each page, its bin, its lazy
//! parts, and the AI workers), checks the sources agree with it, and keeps the linker's relocations of
//! the pages with lazy parts: scripts/split.sh needs them to cut the parts out (src/lazy.rs), and writes
//! modules without them. Every other module is bound and optimised by trunk as it is.
//!
//! The checks make a forgotten step a build error that names it, rather than a page that silently loses
//! its split or its link: every bin in `src/bin` is in the list, a page's parts are declared in its own
//! `src/bin/<bin>/parts.rs` and are exactly the ones listed, and index.html builds each module
//! (`data-bin`) and links each page (`data-page`). docs/build.md says what to touch to add one.

use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// One page of the list.
struct Page {
    route: String,
    bin: String,
    parts: Vec<String>,
}

/// The list: its pages and its AI workers' bins.
struct Manifest {
    pages: Vec<Page>,
    workers: Vec<String>,
}

/// A string field of `value`, or why it is not there.
fn text(value: &Value, field: &str, of: &str) -> Result<String, String> {
    value
        .get(field)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("pages.json: {of} has no string \"{field}\""))
}

/// A list of strings in `value`, or why it is not one.
fn texts(value: Option<&Value>, what: &str) -> Result<Vec<String>, String> {
    value
        .and_then(Value::as_array)
        .ok_or_else(|| format!("pages.json: {what} is not a list"))?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("pages.json: {what} holds something other than a name"))
        })
        .collect()
}

fn read_manifest(path: &Path) -> Result<Manifest, String> {
    let raw = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: Value = serde_json::from_str(&raw).map_err(|e| format!("pages.json: {e}"))?;
    let pages = json
        .get("pages")
        .and_then(Value::as_array)
        .ok_or("pages.json: no list \"pages\"")?
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let of = format!("page {}", i + 1);
            let bin = text(page, "bin", &of)?;
            Ok(Page {
                route: text(page, "route", &of)?,
                parts: texts(page.get("parts"), &format!("the parts of {bin}"))?,
                bin,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let workers = texts(json.get("workers"), "\"workers\"")?;
    Ok(Manifest { pages, workers })
}

/// The split points a bin's source declares (the module names given to `split_part!` / `split_fn!`), in
/// the order written; comment lines are left out.
fn split_points(source: &str) -> Vec<String> {
    let code: String = source
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    for macro_call in ["split_part!(", "split_fn!("] {
        let mut rest = code.as_str();
        while let Some(at) = rest.find(macro_call) {
            rest = &rest[at + macro_call.len()..];
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push(name);
        }
    }
    found
}

/// The bins in `src/bin`: `<bin>.rs` files and `<bin>/main.rs` folders.
fn bins(dir: &Path) -> Result<BTreeSet<String>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter_map(|p| match p.extension() {
            Some(x) if x == "rs" => Some(p.file_stem()?.to_str()?.to_string()),
            None if p.join("main.rs").is_file() => Some(p.file_name()?.to_str()?.to_string()),
            _ => None,
        })
        .collect())
}

/// The split points anywhere in a bin outside its `parts.rs`.
fn stray_split_points(bin_dir: &Path, single: &Path) -> Vec<String> {
    let mut files = vec![single.to_path_buf()];
    if let Ok(entries) = fs::read_dir(bin_dir) {
        files.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.file_name().is_some_and(|n| n != "parts.rs")),
        );
    }
    files
        .iter()
        .filter_map(|f| fs::read_to_string(f).ok())
        .flat_map(|text| split_points(&text))
        .collect()
}

fn check(manifest: &Manifest, src_bin: &Path, index_html: &str) -> Result<(), String> {
    let listed: BTreeSet<&str> = manifest
        .pages
        .iter()
        .map(|p| p.bin.as_str())
        .chain(manifest.workers.iter().map(String::as_str))
        .collect();
    for bin in bins(src_bin)? {
        if !listed.contains(bin.as_str()) {
            return Err(format!(
                "src/bin/{bin} is in neither \"pages\" nor \"workers\" of pages.json: add it there (docs/build.md)"
            ));
        }
    }
    let mut routes = BTreeSet::new();
    for page in &manifest.pages {
        let bin = &page.bin;
        if !routes.insert(page.route.as_str()) {
            return Err(format!(
                "pages.json: the route \"{}\" is given twice",
                page.route
            ));
        }
        let dir = src_bin.join(bin);
        let single = src_bin.join(format!("{bin}.rs"));
        if !dir.join("main.rs").is_file() && !single.is_file() {
            return Err(format!(
                "pages.json names the page {bin}, but there is no src/bin/{bin}.rs nor src/bin/{bin}/main.rs"
            ));
        }
        let stray = stray_split_points(&dir, &single);
        if !stray.is_empty() {
            return Err(format!(
                "{bin} declares the split points {stray:?} outside src/bin/{bin}/parts.rs: move them there"
            ));
        }
        let declared = fs::read_to_string(dir.join("parts.rs"))
            .map(|text| split_points(&text))
            .unwrap_or_default();
        let (mut want, mut have) = (page.parts.clone(), declared);
        want.sort();
        have.sort();
        if want != have {
            return Err(format!(
                "pages.json lists the parts {want:?} for {bin}, but src/bin/{bin}/parts.rs declares {have:?}"
            ));
        }
        if !index_html.contains(&format!("data-page=\"{}\"", page.route)) {
            return Err(format!(
                "index.html has no link to the page {bin}: add <a href=\"#/{0}\" data-page=\"{0}\"> to its <nav>",
                page.route
            ));
        }
    }
    for bin in &listed {
        if !index_html.contains(&format!("data-bin=\"{bin}\"")) {
            return Err(format!(
                "index.html does not build {bin}: add <link data-trunk rel=\"rust\" data-bin=\"{bin}\" ...> as for the others"
            ));
        }
    }
    Ok(())
}

fn main() -> Result<(), String> {
    for path in ["build.rs", "pages.json", "index.html", "src/bin"] {
        println!("cargo:rerun-if-changed={path}");
    }
    let manifest = read_manifest(Path::new("pages.json"))?;
    let index_html = fs::read_to_string("index.html").map_err(|e| format!("index.html: {e}"))?;
    check(&manifest, Path::new("src/bin"), &index_html)?;
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        for page in manifest.pages.iter().filter(|p| !p.parts.is_empty()) {
            println!("cargo:rustc-link-arg-bin={}=--emit-relocs", page.bin);
        }
    }
    Ok(())
}
