//! The page modules that split parts off (a `split_part!` or `split_fn!` in their bin, src/lazy.rs) keep
//! the linker's relocations: scripts/split.sh needs them to cut the parts out, and writes modules without
//! them. Only these pages: every other module is bound and optimised by trunk as it is. Which pages they
//! are is read from their bins, here, and split.sh writes the same list into the built index.html (which
//! fetches a page's parts' loader with the page), so no list of them is kept by hand.

use std::fs;
use std::path::Path;

/// The bins in `src/bin` that declare a split point.
fn split_pages(bins: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(bins) else {
        return Vec::new();
    };
    let mut pages: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter(|p| fs::read_to_string(p).is_ok_and(|text| declares_split_point(&text)))
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .collect();
    pages.sort();
    pages
}

/// Whether a bin's source declares a split point: a line that calls one of the macros (not a mention in
/// a comment).
fn declares_split_point(text: &str) -> bool {
    text.lines().map(str::trim_start).any(|line| {
        ["split_part!(", "split_fn!("]
            .iter()
            .any(|m| line.starts_with(m) || line.starts_with(&format!("gridarena::{m}")))
    })
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/bin");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        for bin in split_pages(Path::new("src/bin")) {
            println!("cargo:rustc-link-arg-bin={bin}=--emit-relocs");
        }
    }
}
